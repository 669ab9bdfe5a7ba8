package io.kubeloop.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project docs/quickstart.md builds, as a reader copies it into an empty directory: its one {@code ```xml} block
 * that is a whole {@code <project>} as {@code pom.xml}, and each {@code ```java} block that is a whole source file at
 * the path the page names last before the block ({@code `src/main/java/….java`} or {@code `src/test/java/….java`}).
 */
public final class QuickstartProject {

    private static final Pattern SOURCE_PATH = Pattern.compile("`(src/(?:main|test)/java/[\\w/]+\\.java)`");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern TYPE = Pattern.compile(
            "(?m)^(?:public |final |abstract |sealed )*(?:class|record|interface|enum|@interface) (\\w+)");

    private QuickstartProject() {}

    /** The page. */
    public static Path page() {
        return DocBlocks.root().resolve("docs/quickstart.md");
    }

    /**
     * Writes the quickstart's {@code pom.xml} and source files into {@code project}.
     *
     * @return the files written, relative to {@code project}
     */
    public static List<Path> writeTo(Path project) throws IOException {
        Path page = page();
        String text = Files.readString(page);
        List<Path> written = new ArrayList<>();
        List<DocBlocks.Block> poms = DocBlocks.blocks(page, "xml").stream()
                .filter(b -> b.code().startsWith("<project"))
                .toList();
        assertThat(poms).as("one whole pom.xml in %s", page).hasSize(1);
        Files.createDirectories(project);
        Files.writeString(project.resolve("pom.xml"), poms.getFirst().code());
        written.add(Path.of("pom.xml"));
        for (DocBlocks.Block b : DocBlocks.blocks(page, "java")) {
            if (!b.isSourceFile()) {
                continue;
            }
            Matcher path = SOURCE_PATH.matcher(text.substring(0, b.offset()));
            String named = null;
            while (path.find()) {
                named = path.group(1);
            }
            Matcher pkg = PACKAGE.matcher(b.code());
            Matcher type = TYPE.matcher(b.code());
            assertThat(pkg.find() && type.find())
                    .as("%s: a package line and a top-level type", b.where())
                    .isTrue();
            String file = pkg.group(1).replace('.', '/') + "/" + type.group(1) + ".java";
            assertThat(named)
                    .as("%s: the path the page names before the block", b.where())
                    .endsWith("/" + file);
            Path to = project.resolve(named);
            Files.createDirectories(to.getParent());
            Files.writeString(to, b.code());
            written.add(Path.of(named));
        }
        return written;
    }
}
