package io.kubeloop.it.api;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public API of one kubeloop module as sorted text lines: every public or protected type, constructor, method
 * and field of the packages its {@code module-info} exports to everyone, with generic signatures. Qualified exports
 * ({@code exports … to …}) are not API: only the named kubeloop modules may read them.
 *
 * <p>One line per member, indented under its type, so that a diff of two dumps reads as "this signature appeared,
 * that one went away". Inherited members are not repeated; bridge and synthetic members are left out.
 *
 * <p>Not thread-safe; one instance per dump.
 */
final class ApiSignatures {

    /** A kubeloop module found on the class path: its name, its classes root and its descriptor. */
    record ModuleRoot(String name, Path root, ModuleDescriptor descriptor) {

        /** Packages exported to every module. */
        Set<String> publicPackages() {
            return descriptor.exports().stream()
                    .filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private ApiSignatures() {}

    /** Every class-path entry holding a {@code module-info.class} of a module named {@code io.kubeloop.*}. */
    static List<ModuleRoot> kubeloopModules() {
        List<ModuleRoot> found = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            withRoot(path, root -> {
                Path info = root.resolve("module-info.class");
                if (Files.isRegularFile(info)) {
                    try (var in = Files.newInputStream(info)) {
                        ModuleDescriptor d = ModuleDescriptor.read(in);
                        if (d.name().startsWith("io.kubeloop.")) {
                            found.add(new ModuleRoot(d.name(), path, d));
                        }
                    }
                }
                return null;
            });
        }
        found.sort(Comparator.comparing(ModuleRoot::name));
        return found;
    }

    /** The dump of one module: sorted lines, a blank line between types. */
    static List<String> dump(ModuleRoot module) {
        Set<String> packages = module.publicPackages();
        List<String> classNames = withRoot(module.root(), root -> {
            try (Stream<Path> files = Files.walk(root)) {
                return files.map(root::relativize)
                        .map(Path::toString)
                        .filter(n -> n.endsWith(".class")
                                && !n.equals("module-info.class")
                                && !n.endsWith("package-info.class"))
                        .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                        .filter(n -> packages.contains(packageOf(n)))
                        .sorted()
                        .toList();
            }
        });
        List<String> lines = new ArrayList<>();
        for (String name : classNames) {
            Class<?> type;
            try {
                type = Class.forName(name, false, ApiSignatures.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("cannot load " + name + " of " + module.name(), e);
            }
            if (!isVisible(type)) {
                continue;
            }
            if (!lines.isEmpty()) {
                lines.add("");
            }
            lines.add(typeLine(type));
            lines.addAll(members(type));
        }
        return lines;
    }

    private static boolean isVisible(Class<?> type) {
        if (type.isSynthetic() || type.isAnonymousClass() || type.isLocalClass()) {
            return false;
        }
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            int m = c.getModifiers();
            if (!Modifier.isPublic(m) && !Modifier.isProtected(m)) {
                return false;
            }
        }
        return true;
    }

    private static String typeLine(Class<?> type) {
        StringBuilder b = new StringBuilder();
        int mods = type.getModifiers();
        if (type.isInterface()) {
            mods &= ~(Modifier.ABSTRACT | Modifier.INTERFACE);
        }
        if (type.isEnum() || type.isRecord()) {
            mods &= ~Modifier.FINAL;
        }
        if (type.isEnum() || type.isRecord() || type.isInterface()) {
            mods &= ~Modifier.STATIC;
        }
        b.append(Modifier.toString(mods));
        if (type.isSealed()) {
            b.append(b.isEmpty() ? "" : " ").append("sealed");
        }
        b.append(b.isEmpty() ? "" : " ").append(kind(type)).append(' ').append(type.getTypeName());
        var params = type.getTypeParameters();
        if (params.length > 0) {
            b.append(Arrays.stream(params)
                    .map(ApiSignatures::typeParameter)
                    .collect(Collectors.joining(", ", "<", ">")));
        }
        Type superclass = type.getGenericSuperclass();
        if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
            b.append(" extends ").append(superclass.getTypeName());
        }
        Type[] interfaces = type.getGenericInterfaces();
        if (interfaces.length > 0) {
            b.append(type.isInterface() ? " extends " : " implements ")
                    .append(Arrays.stream(interfaces).map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        if (type.isSealed()) {
            b.append(" permits ")
                    .append(Arrays.stream(type.getPermittedSubclasses())
                            .map(Class::getTypeName)
                            .sorted()
                            .collect(Collectors.joining(", ")));
        }
        return b.toString();
    }

    private static String kind(Class<?> type) {
        if (type.isAnnotation()) {
            return "@interface";
        }
        if (type.isInterface()) {
            return "interface";
        }
        if (type.isEnum()) {
            return "enum";
        }
        if (type.isRecord()) {
            return "record";
        }
        return "class";
    }

    private static String typeParameter(TypeVariable<?> v) {
        Type[] bounds = v.getBounds();
        if (bounds.length == 1 && bounds[0] == Object.class) {
            return v.getName();
        }
        return v.getName() + " extends "
                + Arrays.stream(bounds).map(Type::getTypeName).collect(Collectors.joining(" & "));
    }

    private static List<String> members(Class<?> type) {
        TreeSet<String> out = new TreeSet<>();
        for (Field f : type.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !f.isSynthetic()) {
                out.add("  "
                        + (f.isEnumConstant()
                                ? "enum constant " + f.getName()
                                : Modifier.toString(f.getModifiers()) + " "
                                        + f.getGenericType().getTypeName() + " " + f.getName()));
            }
        }
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (visible(c.getModifiers()) && !c.isSynthetic() && !type.isEnum()) {
                out.add("  " + executable(c, null));
            }
        }
        for (Method m : type.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                out.add("  " + executable(m, m.getGenericReturnType()));
            }
        }
        return List.copyOf(out);
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static String executable(Executable e, Type returnType) {
        StringBuilder b = new StringBuilder();
        int mods = e.getModifiers() & Modifier.methodModifiers();
        if (e.getDeclaringClass().isInterface()) {
            mods &= ~Modifier.PUBLIC;
            if (!Modifier.isStatic(mods) && !Modifier.isAbstract(mods) && e instanceof Method) {
                b.append("default ");
            }
            mods &= ~Modifier.ABSTRACT;
        }
        String m = Modifier.toString(mods);
        b.append(m).append(m.isEmpty() ? "" : " ");
        var params = e.getTypeParameters();
        if (params.length > 0) {
            b.append(Arrays.stream(params)
                    .map(ApiSignatures::typeParameter)
                    .collect(Collectors.joining(", ", "<", "> ")));
        }
        if (returnType != null) {
            b.append(returnType.getTypeName()).append(' ').append(e.getName());
        } else {
            b.append(e.getDeclaringClass().getSimpleName());
        }
        b.append(Arrays.stream(e.getGenericParameterTypes())
                .map(Type::getTypeName)
                .collect(Collectors.joining(", ", "(", ")")));
        Type[] thrown = e.getGenericExceptionTypes();
        if (thrown.length > 0) {
            b.append(" throws ")
                    .append(Arrays.stream(thrown).map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        return b.toString();
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    @FunctionalInterface
    private interface RootAction<R> {
        R apply(Path root) throws IOException;
    }

    /** Runs {@code action} on a directory, or on the root of a jar file. */
    private static <R> R withRoot(Path path, RootAction<R> action) {
        try {
            if (Files.isDirectory(path)) {
                return action.apply(path);
            }
            if (Files.isRegularFile(path) && path.toString().endsWith(".jar")) {
                try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + path.toUri()), Map.of())) {
                    return action.apply(jar.getPath("/"));
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
