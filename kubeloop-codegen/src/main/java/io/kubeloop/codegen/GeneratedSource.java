package io.kubeloop.codegen;

import java.nio.file.Path;

/**
 * One generated Java compilation unit.
 *
 * @param packageName its package, e.g. {@code com.example.certmanager.v1}
 * @param className its top-level class, e.g. {@code Certificate}
 * @param source the Java source text
 */
public record GeneratedSource(String packageName, String className, String source) {

    /** Where the file goes under a source root: {@code com/example/certmanager/v1/Certificate.java}. */
    public Path relativePath() {
        return Path.of(packageName.replace('.', '/'), className + ".java");
    }

    /** The fully qualified class name. */
    public String qualifiedName() {
        return packageName + "." + className;
    }
}
