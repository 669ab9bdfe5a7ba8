package io.kubeloop.it.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fenced code blocks of kubeloop's Markdown pages, as a reader sees them: {@code ```LANGUAGE} at the start of a
 * line, the block's text, {@code ```} at the start of a line.
 */
public final class DocBlocks {

    private DocBlocks() {}

    /**
     * One fenced block.
     *
     * @param file the page
     * @param line the line of the block's first line of text (1-based)
     * @param offset where the block's fence starts in the page's text
     * @param code the block's text, each line ending with a line break
     */
    public record Block(Path file, int line, int offset, String code) {

        /** The page's name and the block's line, as {@code quickstart.md:42}. */
        public String where() {
            return file.getFileName() + ":" + line;
        }

        /** Whether the block is a whole Java source file: it starts with a {@code package} line. */
        public boolean isSourceFile() {
            return code.startsWith("package ");
        }
    }

    /** The repository's root: the parent of this module's directory. */
    public static Path root() {
        return Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
    }

    /** README.md and every page under docs/, in that order (docs/ sorted by path). */
    public static List<Path> pages() {
        Path root = root();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        Path docs = root.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> walk = Files.walk(docs)) {
                walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** The blocks of {@code page} fenced as {@code language} ({@code java}, {@code xml}…), in their order. */
    public static List<Block> blocks(Path page, String language) {
        String text;
        try {
            text = Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Pattern fence =
                Pattern.compile("(?m)^```" + Pattern.quote(language) + "[ \\t]*\\n(.*?)^```[ \\t]*$", Pattern.DOTALL);
        Matcher m = fence.matcher(text);
        List<Block> out = new ArrayList<>();
        while (m.find()) {
            int line = (int) text.substring(0, m.start())
                            .chars()
                            .filter(c -> c == '\n')
                            .count()
                    + 2;
            out.add(new Block(page, line, m.start(), m.group(1)));
        }
        return out;
    }
}
