import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a release staged into a directory ({@code mvn -Prelease deploy} to a {@code file:} repository) against
 * what Maven Central requires of each published artifact, and that nothing else was staged:
 *
 * <ul>
 *   <li>every reactor module is either published or listed as not published here (a new module forces a
 *       decision), and the BOM manages exactly the published jars;
 *   <li>each published module has its POM, and unless it is a POM, its jar (with classes), {@code -sources.jar}
 *       (with sources) and {@code -javadoc.jar}; each file has an {@code .md5}, a {@code .sha1} that match it, and
 *       an {@code .asc} signature that {@code gpg --verify} accepts with the keyring in {@code GNUPGHOME};
 *   <li>each POM, with what it inherits from kubeloop-parent, has a name, description, url, licenses,
 *       developers and scm (url, connection);
 *   <li>no unpublished module, and nothing else, is in the directory.
 * </ul>
 *
 * <p>Run with JDK 21+ as a source file: {@code java tools/release/CheckStaging.java STAGING_DIR} from the
 * repository's root. Prints one line per problem and exits 1 if there is any.
 */
public final class CheckStaging {

    /** Published, in reactor order: what a user's build can depend on, and what those need. */
    static final List<String> PUBLISHED = List.of(
            "kubeloop-parent",
            "kubeloop-bom",
            "kubeloop-time",
            "kubeloop-api",
            "kubeloop-fabric8",
            "kubeloop-codegen",
            "kubeloop-maven-plugin",
            "kubeloop-models",
            "kubeloop-workqueue",
            "kubeloop-client",
            "kubeloop-cache",
            "kubeloop-controller",
            "kubeloop-cel",
            "kubeloop-apiserver",
            "kubeloop-testing");

    /** Not published: test peers, benchmarks, integration tests, and the sample and CLI that run from a clone. */
    static final Set<String> UNPUBLISHED =
            Set.of("kubeloop-peers", "kubeloop-samples", "kubeloop-cli", "kubeloop-bench", "kubeloop-it");

    private final List<String> problems = new ArrayList<>();
    private int files;
    private int signatures;

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java tools/release/CheckStaging.java STAGING_DIR");
            System.exit(2);
        }
        CheckStaging check = new CheckStaging();
        check.run(Path.of("."), Path.of(args[0]));
        for (String p : check.problems) {
            System.out.println("release check: " + p);
        }
        if (!check.problems.isEmpty()) {
            System.out.println("release check: FAILED, " + check.problems.size() + " problems");
            System.exit(1);
        }
        System.out.println("release check: " + PUBLISHED.size() + " artifacts staged complete, " + check.files
                + " files with matching .md5 and .sha1, " + check.signatures + " signatures verified; not published: "
                + new TreeSet<>(UNPUBLISHED));
    }

    void run(Path root, Path staging) throws Exception {
        Document parent = xml(root.resolve("pom.xml"));
        String version = text(parent.getDocumentElement(), "version");
        Set<String> modules = new TreeSet<>();
        for (Element m : children(child(parent.getDocumentElement(), "modules"), "module")) {
            modules.add(m.getTextContent().strip());
        }
        for (String m : modules) {
            if (PUBLISHED.contains(m) == UNPUBLISHED.contains(m)) {
                problems.add("module " + m + " is neither published nor listed as not published: decide in "
                        + "tools/release/CheckStaging.java and its pom (maven.deploy.skip)");
            }
        }
        checkBom(root, modules);
        Path group = staging.resolve("io/kubeloop");
        if (!Files.isDirectory(group)) {
            problems.add("nothing staged under " + group);
            return;
        }
        Set<String> staged = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(group)) {
            dirs.forEach(d -> staged.add(d.getFileName().toString()));
        }
        for (String a : staged) {
            if (!PUBLISHED.contains(a)) {
                problems.add(a + " is staged but is not published");
            }
        }
        Map<String, Document> poms = new LinkedHashMap<>();
        for (String artifact : PUBLISHED) {
            Path dir = group.resolve(artifact).resolve(version);
            if (!Files.isDirectory(dir)) {
                problems.add(artifact + ": not staged (" + dir + ")");
                continue;
            }
            Document pom = checkArtifact(artifact, version, dir);
            if (pom != null) {
                poms.put(artifact, pom);
            }
        }
        Document stagedParent = poms.get("kubeloop-parent");
        for (var e : poms.entrySet()) {
            checkMetadata(e.getKey(), e.getValue(), stagedParent);
        }
    }

    /** The BOM manages exactly the published jars. */
    private void checkBom(Path root, Set<String> modules) throws Exception {
        Document bom = xml(root.resolve("kubeloop-bom/pom.xml"));
        Set<String> managed = new TreeSet<>();
        Element dm = child(bom.getDocumentElement(), "dependencyManagement");
        for (Element d : children(child(dm, "dependencies"), "dependency")) {
            managed.add(text(d, "artifactId"));
        }
        Set<String> jars = new TreeSet<>(PUBLISHED);
        jars.removeAll(List.of("kubeloop-parent", "kubeloop-bom", "kubeloop-maven-plugin"));
        if (!managed.equals(jars)) {
            problems.add("the BOM manages " + managed + ", the published jars are " + jars);
        }
    }

    /** The artifact's files; returns its POM, or null when it is missing. */
    private Document checkArtifact(String artifact, String version, Path dir) throws Exception {
        String base = version.endsWith("-SNAPSHOT") ? baseOfNewestSnapshot(artifact, version, dir) : artifact + "-" + version;
        if (base == null) {
            problems.add(artifact + ": no POM in " + dir);
            return null;
        }
        Path pomFile = dir.resolve(base + ".pom");
        Document pom = xml(pomFile);
        String packaging = text(pom.getDocumentElement(), "packaging");
        List<Path> required = new ArrayList<>(List.of(pomFile));
        if (!"pom".equals(packaging)) {
            required.add(dir.resolve(base + ".jar"));
            required.add(dir.resolve(base + "-sources.jar"));
            required.add(dir.resolve(base + "-javadoc.jar"));
        }
        for (Path f : required) {
            checkFile(artifact, f);
        }
        if (!"pom".equals(packaging)) {
            checkJar(artifact, dir.resolve(base + ".jar"), ".class");
            checkJar(artifact, dir.resolve(base + "-sources.jar"), ".java");
            checkJar(artifact, dir.resolve(base + "-javadoc.jar"), artifact.equals("kubeloop-cel") ? "README.md" : "index.html");
        }
        return pom;
    }

    /**
     * A SNAPSHOT deploys under a timestamp ({@code a-0.1.0-20260101.120000-1.pom}); the newest build's file
     * name without its extension, or null.
     */
    private static String baseOfNewestSnapshot(String artifact, String version, Path dir) throws IOException {
        String prefix = artifact + "-" + version.substring(0, version.length() - "-SNAPSHOT".length()) + "-";
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(prefix) && n.endsWith(".pom"))
                    .map(n -> n.substring(0, n.length() - ".pom".length()))
                    .max(String::compareTo)
                    .orElse(null);
        }
    }

    private void checkFile(String artifact, Path f) throws Exception {
        if (!Files.isRegularFile(f)) {
            problems.add(artifact + ": missing " + f.getFileName());
            return;
        }
        files++;
        byte[] bytes = Files.readAllBytes(f);
        checkDigest(artifact, f, "MD5", ".md5", bytes);
        checkDigest(artifact, f, "SHA-1", ".sha1", bytes);
        Path asc = f.resolveSibling(f.getFileName() + ".asc");
        if (!Files.isRegularFile(asc)) {
            problems.add(artifact + ": missing " + asc.getFileName());
            return;
        }
        Process gpg = new ProcessBuilder("gpg", "--batch", "--verify", asc.toString(), f.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(gpg.getInputStream().readAllBytes());
        if (!gpg.waitFor(60, TimeUnit.SECONDS) || gpg.exitValue() != 0 || !out.contains("Good signature")) {
            problems.add(artifact + ": " + asc.getFileName() + " does not verify: "
                    + out.strip().replace('\n', ' '));
            return;
        }
        signatures++;
    }

    private void checkDigest(String artifact, Path f, String algorithm, String suffix, byte[] bytes)
            throws IOException, NoSuchAlgorithmException {
        Path sum = f.resolveSibling(f.getFileName() + suffix);
        if (!Files.isRegularFile(sum)) {
            problems.add(artifact + ": missing " + sum.getFileName());
            return;
        }
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        String actual = Files.readString(sum).strip().split("\\s+")[0];
        if (!expected.equalsIgnoreCase(actual)) {
            problems.add(artifact + ": " + sum.getFileName() + " does not match the file");
        }
    }

    /** The jar holds at least one entry ending in {@code suffix}. */
    private void checkJar(String artifact, Path jar, String suffix) throws IOException {
        if (!Files.isRegularFile(jar)) {
            return; // reported as missing
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            if (zip.stream().noneMatch(e -> e.getName().endsWith(suffix))) {
                problems.add(artifact + ": " + jar.getFileName() + " holds no " + suffix);
            }
        }
    }

    /** Central's required POM elements, each given by the POM or inherited from kubeloop-parent. */
    private void checkMetadata(String artifact, Document pom, Document parent) {
        Element p = pom.getDocumentElement();
        boolean inherits = child(p, "parent") != null;
        Element from = inherits && parent != null ? parent.getDocumentElement() : null;
        for (String own : List.of("name", "description")) {
            if (text(p, own).isBlank()) {
                problems.add(artifact + ": the POM has no <" + own + ">");
            }
        }
        for (String element : List.of("url", "licenses/license/name", "developers/developer/name", "scm/url", "scm/connection")) {
            if (path(p, element).isBlank() && (from == null || path(from, element).isBlank())) {
                problems.add(artifact + ": the POM has no <" + element + "> of its own or from kubeloop-parent");
            }
        }
    }

    private static String path(Element e, String path) {
        Element at = e;
        String[] parts = path.split("/");
        for (int i = 0; i < parts.length - 1 && at != null; i++) {
            at = child(at, parts[i]);
        }
        return at == null ? "" : text(at, parts[parts.length - 1]);
    }

    private static Document xml(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
    }

    private static Element child(Element e, String name) {
        if (e == null) {
            return null;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static List<Element> children(Element e, String name) {
        List<Element> out = new ArrayList<>();
        if (e == null) {
            return out;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(name)) {
                out.add(c);
            }
        }
        return out;
    }

    private static String text(Element e, String name) {
        Element c = child(e, name);
        return c == null ? "" : c.getTextContent().strip();
    }
}
