package io.kubeloop.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/ compiles as shown, against kubeloop's published modules.
 *
 * <p>A block that starts with a {@code package} line is a whole source file: it must be, byte for byte, the
 * source file of that name under this module's {@code src/test/java}, which is compiled and run with the tests
 * (the quickstart's controller and its test are). Any other block is one compilation unit: its {@code import}
 * lines first, then any mix of type declarations and methods (each starting at column 0) and statements. Types
 * and methods become members of a generated class; the statements become the body of one of its methods (which
 * may throw anything), in their order. So a block must declare or import everything it uses, just as a reader
 * copying it would need. Text that is not meant to compile (output, shell, YAML) uses another fence language.
 */
class DocSnippetsTest {

    private static final Pattern MEMBER_START = Pattern.compile(
            "^(@\\w+.*|(public |protected |private |static |final |abstract |sealed |non-sealed )*"
                    + "(class|record|interface|enum|@interface) \\w+.*"
                    + "|(public |protected |private |static |final |synchronized )*(<[^>]+> )?[\\w.<>\\[\\], ?]+ \\w+\\(.*)$");

    /** One fenced block: where it is, and its text. */
    record Snippet(Path file, int line, String code) {
        String where() {
            return file.getFileName() + ":" + line;
        }
    }

    @Test
    void everyJavaBlockInTheDocsCompiles(@TempDir Path out) {
        List<Snippet> snippets = snippets();
        assertThat(snippets).as("java blocks found in README.md and docs/").isNotEmpty();
        Map<String, String> units = new LinkedHashMap<>(); // class name -> its compilation unit
        Map<String, Snippet> blocks = new LinkedHashMap<>(); // class name -> its block
        for (int i = 0; i < snippets.size(); i++) {
            Snippet s = snippets.get(i);
            if (isSourceFile(s)) {
                continue; // compiled and run as a test source, see everyWholeSourceFileInTheDocsIsATestedSource
            }
            String className = "Snippet" + i;
            units.put(className, compilationUnit(s.code(), className));
            blocks.put(className, s);
        }
        // Every unit in one javac run: the usual case, where all compile, starts the compiler once. Each unit
        // declares just a class of its own name, so together they compile exactly when each does alone.
        if (compile(units, out.resolve("all")) == null) {
            return;
        }
        // Something did not compile: each unit on its own, so that each failure names its block
        List<String> failures = new ArrayList<>();
        units.forEach((className, unit) -> {
            String errors = compile(Map.of(className, unit), out.resolve(className));
            if (errors != null) {
                failures.add(blocks.get(className).where() + ":\n" + errors);
            }
        });
        assertThat(failures).as("java blocks that do not compile").isEmpty();
    }

    @Test
    void everyWholeSourceFileInTheDocsIsATestedSource() throws IOException {
        Path sources =
                Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("src/test/java");
        for (Snippet s : snippets()) {
            if (!isSourceFile(s)) {
                continue;
            }
            Matcher pkg = PACKAGE.matcher(s.code());
            Matcher type = PUBLIC_TYPE.matcher(s.code());
            assertThat(pkg.find() && type.find())
                    .as("%s: a package line and a top-level type", s.where())
                    .isTrue();
            Path file = sources.resolve(pkg.group(1).replace('.', '/')).resolve(type.group(1) + ".java");
            assertThat(file).as("%s is the source file %s", s.where(), file).exists();
            assertThat(s.code()).as("%s: the same text as %s", s.where(), file).isEqualTo(Files.readString(file));
        }
    }

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^(?:public |final |abstract |sealed )*(?:class|record|interface|enum|@interface) (\\w+)");

    private static boolean isSourceFile(Snippet s) {
        return s.code().startsWith("package ");
    }

    static List<Snippet> snippets() {
        List<Snippet> out = new ArrayList<>();
        for (Path page : DocBlocks.pages()) {
            for (DocBlocks.Block b : DocBlocks.blocks(page, "java")) {
                out.add(new Snippet(b.file(), b.line(), b.code()));
            }
        }
        return out;
    }

    /** Imports, then members at column 0 kept as members, everything else as one method body. */
    static String compilationUnit(String code, String className) {
        StringBuilder imports = new StringBuilder();
        StringBuilder members = new StringBuilder();
        StringBuilder body = new StringBuilder();
        String[] lines = code.split("\n", -1);
        int i = 0;
        while (i < lines.length) {
            String line = lines[i];
            if (line.startsWith("import ")) {
                imports.append(line).append('\n');
                i++;
            } else if (!line.isEmpty()
                    && !Character.isWhitespace(line.charAt(0))
                    && MEMBER_START.matcher(line).matches()
                    && !line.endsWith(";")) {
                int depth = 0;
                boolean opened = false;
                do {
                    String l = lines[i];
                    members.append(l).append('\n');
                    for (char c : stripStringsAndComments(l).toCharArray()) {
                        if (c == '{') {
                            depth++;
                            opened = true;
                        } else if (c == '}') {
                            depth--;
                        }
                    }
                    i++;
                } while (i < lines.length && (!opened || depth > 0));
            } else {
                body.append(line).append('\n');
                i++;
            }
        }
        return imports + "\n@SuppressWarnings(\"all\")\nclass " + className + " {\n" + members
                + "\nvoid snippet() throws Exception {\n" + body + "\n}\n}\n";
    }

    private static String stripStringsAndComments(String line) {
        return line.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("'(\\\\.|[^'\\\\])'", "' '")
                .replaceAll("//.*$", "");
    }

    /**
     * Compiles {@code units} (class name to source) in one javac run; returns the diagnostics with the
     * generated sources, or null when they compiled.
     */
    private static String compile(Map<String, String> units, Path outDir) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
            List<JavaFileObject> sources = new ArrayList<>();
            units.forEach((className, source) -> sources.add(
                    new SimpleJavaFileObject(
                            URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
                        @Override
                        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                            return source;
                        }
                    }));
            List<String> options = List.of(
                    "-classpath",
                    System.getProperty("java.class.path"),
                    "-d",
                    outDir.toString(),
                    "-proc:none",
                    "-Xlint:none",
                    "--release",
                    "21");
            StringWriter log = new StringWriter();
            boolean ok = javac.getTask(log, files, diagnostics, options, null, sources)
                    .call();
            if (ok) {
                return null;
            }
            StringBuilder b = new StringBuilder();
            diagnostics
                    .getDiagnostics()
                    .forEach(d -> b.append("  line ")
                            .append(d.getLineNumber())
                            .append(": ")
                            .append(d.getMessage(null))
                            .append('\n'));
            units.values()
                    .forEach(source -> b.append("  --- generated source ---\n").append(source.indent(4)));
            return b.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
