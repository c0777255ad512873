package io.chiplet.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The main sources of every module of the build, read for their packages and for each package-info's line of the
 * rule table: a paragraph {@code <p>Allowed dependencies: {@code a}, {@code b}.} (or {@code none of ours.}), the
 * same packages as {@link PackageTable}.
 */
final class PackageInfos
{
    static final String FORM = "Allowed dependencies:";

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern CODE = Pattern.compile("\\{@code\\s+([\\w.]+)}");

    private PackageInfos() {}

    /** The build's root: the folder above this module whose pom.xml lists the modules. */
    static Path buildRoot()
    {
        Path root = Path.of("").toAbsolutePath().getParent();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("core/src/main"))) {
            throw new IllegalStateException("not the build's root (no pom.xml and core/src/main): " + root);
        }
        return root;
    }

    /** Every package with main sources in any module ({@code <module>/src/main/<any>/...java}), with its folders. */
    static Map<String, Set<Path>> mainPackages(Path root)
    {
        Map<String, Set<Path>> packages = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(dir -> Files.isDirectory(dir.resolve("src/main"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main"))) {
                    for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                        packageOf(Files.readString(file)).ifPresent(name -> packages.computeIfAbsent(name, _ -> new TreeSet<>()).add(file.getParent()));
                    }
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packages;
    }

    /** The build's modules with main sources ({@code <module>/src/main}), by folder name: found, not listed. */
    static Set<String> modules(Path root)
    {
        try (Stream<Path> modules = Files.list(root)) {
            return modules.filter(dir -> Files.isDirectory(dir.resolve("src/main")))
                    .map(dir -> dir.getFileName().toString())
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The main packages of one module ({@code core}: core's; every other module's are adapters'). */
    static Set<String> packagesOf(Path root, String module)
    {
        Path sources = root.resolve(module).resolve("src/main");
        Set<String> packages = new TreeSet<>();
        mainPackages(root).forEach((name, folders) -> {
            if (folders.stream().anyMatch(folder -> folder.startsWith(sources))) {
                packages.add(name);
            }
        });
        return packages;
    }

    /** Each main package's package-info line of the rule table, for every package-info that has one. */
    static Map<String, Set<String>> statedRules(Path root)
    {
        Map<String, Set<String>> rules = new TreeMap<>();
        mainPackages(root).forEach((name, folders) -> folders.forEach(folder -> {
            Path info = folder.resolve("package-info.java");
            if (Files.isRegularFile(info)) {
                try {
                    statedRule(Files.readString(info)).ifPresent(rule -> rules.put(name, rule));
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }));
        return rules;
    }

    /** The packages a package-info's {@value #FORM} paragraph names; empty when it has no such paragraph. */
    static Optional<Set<String>> statedRule(String packageInfo)
    {
        int start = packageInfo.indexOf(FORM);
        if (start < 0) {
            return Optional.empty();
        }
        String rest = packageInfo.substring(start + FORM.length());
        int end = Stream.of(rest.indexOf("<p>"), rest.indexOf("*/"))
                .filter(index -> index >= 0)
                .min(Integer::compare)
                .orElse(rest.length());
        Set<String> named = new TreeSet<>();
        // a {@code} may wrap onto the next comment line
        Matcher matcher = CODE.matcher(rest.substring(0, end).replaceAll("\\s*\\R\\s*\\*\\s*", " "));
        while (matcher.find()) {
            named.add(matcher.group(1));
        }
        return Optional.of(named);
    }

    private static Optional<String> packageOf(String source)
    {
        Matcher matcher = PACKAGE.matcher(source);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }
}
