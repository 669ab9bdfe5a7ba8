package io.kubeloop.codegen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The text helpers of generated sources: parameter summaries, Javadoc escaping, string literals. */
class ModelWriterTest {

    @Test
    void theFirstSentenceKeepsAbbreviationsAndJoinsLines() {
        assertThat(ModelWriter.firstSentence("Requested 'duration' (i.e. lifetime) of the Certificate.\nNote that"
                        + " the issuer may choose."))
                .isEqualTo("Requested 'duration' (i.e. lifetime) of the Certificate.");
        assertThat(ModelWriter.firstSentence("Names, e.g. foo. Other text.")).isEqualTo("Names, e.g. foo.");
        assertThat(ModelWriter.firstSentence("No full stop")).isEqualTo("No full stop");
    }

    @Test
    void javadocTextCannotEndTheCommentOrStartATagOrAnEscape() {
        assertThat(ModelWriter.escapeJavadoc("a */ b @see <x> & {@code y} \\u0041"))
                .isEqualTo("a *&#47; b &#64;see &lt;x&gt; &amp; &#123;&#64;code y&#125; &#92;u0041");
    }

    @Test
    void stringLiteralsEscapeQuotesBackslashesControlsAndNonAscii() {
        assertThat(ModelWriter.literal("a\"b\\c\nd\té")).isEqualTo("\"a\\\"b\\\\c\\nd\\t\\u00e9\"");
    }
}
