package io.chiplet.trino;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.MethodRefEntry;
import java.lang.classfile.constantpool.InterfaceMethodRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.reflect.AccessFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against the SPI of every Trino release it supports, from the oldest (which it compiles against) to the
 * newest (which the in-process tests run): every SPI class, method and field its byte code names exists in that
 * release with the same descriptor, and every abstract SPI method its classes must implement there is implemented.
 * So a member one release adds, drops or changes (Trino 482 replaced {@code ConnectorSplitManager.getSplits}'s
 * {@code DynamicFilter} with the projected columns) fails here, not as a {@link LinkageError} on a user's server. The
 * releases and the JDK each needs also feed the support matrix in {@code docs/trino.md}, which this test checks.
 */
class TrinoReleasesTest
{
    private static final String SPI_PACKAGE = "io/trino/spi/";
    private static final Path PLUGIN_CLASSES = Path.of("target/classes");
    private static final Path DOCS = Path.of("../docs/trino.md");

    static List<String> releases()
    {
        String releases = System.getProperty("chiplet.trino.releases");
        assertThat(releases).as("chiplet.trino.releases, set by the build").isNotBlank();
        return List.of(releases.split(","));
    }

    private static Path spiJar(String release)
    {
        return Path.of(System.getProperty("chiplet.trino.spi.releases", "target/trino-spi-releases")).resolve("trino-spi-" + release + ".jar");
    }

    @ParameterizedTest(name = "Trino {0}")
    @MethodSource("releases")
    void pluginLinksAgainstTheSpiOfTheRelease(String release)
            throws IOException
    {
        try (ClassSource spi = ClassSource.jar(spiJar(release))) {
            Map<String, ClassModel> plugin = pluginClasses();
            Hierarchy hierarchy = new Hierarchy(plugin, spi);
            Set<String> problems = new TreeSet<>();
            int references = 0;
            for (ClassModel model : plugin.values()) {
                String self = model.thisClass().asInternalName();
                for (PoolEntry entry : model.constantPool()) {
                    if (entry instanceof MemberRefEntry member && isSpi(member.owner().asInternalName())) {
                        references++;
                        String owner = member.owner().asInternalName();
                        boolean method = member instanceof MethodRefEntry || member instanceof InterfaceMethodRefEntry;
                        if (!hierarchy.declares(owner, member.name().stringValue(), member.type().stringValue(), method)) {
                            problems.add("%s uses %s.%s%s, missing".formatted(self, owner, member.name().stringValue(), member.type().stringValue()));
                        }
                    }
                    else if (entry instanceof ClassEntry type && isSpi(elementType(type.asInternalName()))) {
                        references++;
                        if (hierarchy.model(elementType(type.asInternalName())).isEmpty()) {
                            problems.add("%s uses class %s, missing".formatted(self, elementType(type.asInternalName())));
                        }
                    }
                }
                problems.addAll(hierarchy.unimplemented(model));
            }
            assertThat(references).as("SPI references in the plugin's classes").isGreaterThan(100);
            assertThat(problems).as("the plugin's classes against trino-spi %s", release).isEmpty();
        }
    }

    /** A release's minimum JDK: the class file version of its SPI (Trino compiles everything for one release). */
    static int minimumJdk(String release)
            throws IOException
    {
        try (ZipFile jar = new ZipFile(spiJar(release).toFile())) {
            ZipEntry entry = jar.getEntry("io/trino/spi/Plugin.class");
            try (InputStream in = jar.getInputStream(entry)) {
                byte[] header = in.readNBytes(8);
                return (((header[6] & 0xFF) << 8) | (header[7] & 0xFF)) - 44;
            }
        }
    }

    @Test
    void supportMatrixInTheDocsListsTheTestedReleasesAndTheirJdks()
            throws IOException
    {
        List<List<String>> rows = SupportMatrix.read(DOCS);
        List<String> releases = releases();
        List<String> listed = rows.stream().map(row -> row.getFirst()).toList();
        // One row per tested release, oldest first, then one for releases newer than the newest tested.
        assertThat(listed).as("the Trino column of the support matrix in %s", DOCS)
                .containsExactlyElementsOf(Stream.concat(releases.stream(), Stream.of("newer")).toList());
        for (List<String> row : rows.subList(0, releases.size())) {
            String release = row.getFirst();
            int jdk = minimumJdk(release);
            assertThat(row.get(1)).as("JDK column of Trino %s (its SPI is Java %d byte code)", release, jdk).isEqualTo(jdk + " and later");
            // Every release links (the test above); the oldest runs as a real server, the newest in-process.
            String expectedTests = release.equals(releases.getFirst())
                    ? "TrinoServerIT, TrinoReleasesTest"
                    : release.equals(releases.getLast()) ? "ChipletClusterTest, PluginZipIT, TrinoReleasesTest" : "TrinoReleasesTest";
            assertThat(row.get(2)).as("tests of Trino %s", release).isEqualTo(expectedTests);
        }
        for (String test : List.of("TrinoServerIT", "TrinoReleasesTest", "ChipletClusterTest", "PluginZipIT")) {
            assertThat(Path.of("src/test/java/io/chiplet/trino/" + test + ".java")).isRegularFile();
        }
    }

    private static boolean isSpi(String internalName)
    {
        return internalName.startsWith(SPI_PACKAGE);
    }

    private static String elementType(String internalName)
    {
        String name = internalName;
        while (name.startsWith("[")) {
            name = name.substring(1);
        }
        return name.startsWith("L") && name.endsWith(";") ? name.substring(1, name.length() - 1) : name;
    }

    private static Map<String, ClassModel> pluginClasses()
            throws IOException
    {
        Map<String, ClassModel> classes = new HashMap<>();
        try (Stream<Path> files = Files.walk(PLUGIN_CLASSES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(Files.readAllBytes(file));
                classes.put(model.thisClass().asInternalName(), model);
            }
        }
        assertThat(classes).as("the plugin's compiled classes in %s", PLUGIN_CLASSES).isNotEmpty();
        return classes;
    }

    /** Class files by internal name: a release's SPI jar. */
    private interface ClassSource
            extends AutoCloseable
    {
        Optional<byte[]> read(String internalName);

        @Override
        void close()
                throws IOException;

        static ClassSource jar(Path path)
                throws IOException
        {
            assertThat(path).as("the SPI jar, copied by the build").isRegularFile();
            ZipFile zip = new ZipFile(path.toFile());
            return new ClassSource()
            {
                @Override
                public Optional<byte[]> read(String internalName)
                {
                    ZipEntry entry = zip.getEntry(internalName + ".class");
                    if (entry == null) {
                        return Optional.empty();
                    }
                    try (InputStream in = zip.getInputStream(entry)) {
                        return Optional.of(in.readAllBytes());
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void close()
                        throws IOException
                {
                    zip.close();
                }
            };
        }
    }

    /** The type hierarchy across the plugin's classes, one release's SPI and the JDK, as the JVM would link it. */
    private static final class Hierarchy
    {
        private final Map<String, ClassModel> plugin;
        private final ClassSource spi;
        private final Map<String, Optional<ClassModel>> loaded = new HashMap<>();

        Hierarchy(Map<String, ClassModel> plugin, ClassSource spi)
        {
            this.plugin = plugin;
            this.spi = spi;
        }

        Optional<ClassModel> model(String internalName)
        {
            return loaded.computeIfAbsent(internalName, name -> {
                if (plugin.containsKey(name)) {
                    return Optional.of(plugin.get(name));
                }
                Optional<byte[]> bytes = isSpi(name) ? spi.read(name) : jdkClass(name);
                return bytes.map(ClassFile.of()::parse);
            });
        }

        private static Optional<byte[]> jdkClass(String internalName)
        {
            try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
                return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** {@code owner} and its supertypes, nearest first, {@code java/lang/Object} last. */
        List<ClassModel> supertypes(String owner)
        {
            Set<String> seen = new LinkedHashSet<>();
            Deque<String> todo = new ArrayDeque<>(List.of(owner));
            List<ClassModel> found = new ArrayList<>();
            while (!todo.isEmpty()) {
                String name = todo.removeFirst();
                if (!seen.add(name)) {
                    continue;
                }
                Optional<ClassModel> model = model(name);
                if (model.isEmpty()) {
                    continue;
                }
                found.add(model.get());
                model.get().superclass().ifPresent(superclass -> todo.addLast(superclass.asInternalName()));
                model.get().interfaces().forEach(type -> todo.addLast(type.asInternalName()));
            }
            if (seen.add("java/lang/Object")) {
                model("java/lang/Object").ifPresent(found::add);
            }
            return found;
        }

        boolean declares(String owner, String name, String descriptor, boolean method)
        {
            if (model(owner).isEmpty()) {
                return false;
            }
            for (ClassModel type : supertypes(owner)) {
                if (method ? findMethod(type, name, descriptor).isPresent() : hasField(type, name, descriptor)) {
                    return true;
                }
            }
            return false;
        }

        /** Abstract SPI methods a concrete plugin class does not implement in this release. */
        List<String> unimplemented(ClassModel model)
        {
            if (model.flags().has(AccessFlag.ABSTRACT) || model.flags().has(AccessFlag.INTERFACE)) {
                return List.of();
            }
            List<ClassModel> supertypes = supertypes(model.thisClass().asInternalName());
            List<String> missing = new ArrayList<>();
            Set<String> checked = new HashSet<>();
            for (ClassModel type : supertypes) {
                if (!isSpi(type.thisClass().asInternalName())) {
                    continue;
                }
                for (MethodModel method : type.methods()) {
                    String signature = method.methodName().stringValue() + method.methodType().stringValue();
                    if (!method.flags().has(AccessFlag.ABSTRACT) || !checked.add(signature)) {
                        continue;
                    }
                    boolean implemented = supertypes.stream()
                            .map(candidate -> findMethod(candidate, method.methodName().stringValue(), method.methodType().stringValue()))
                            .flatMap(Optional::stream)
                            .anyMatch(candidate -> !candidate.flags().has(AccessFlag.ABSTRACT));
                    if (!implemented) {
                        missing.add("%s does not implement %s.%s".formatted(model.thisClass().asInternalName(), type.thisClass().asInternalName(), signature));
                    }
                }
            }
            return missing;
        }

        private static Optional<MethodModel> findMethod(ClassModel type, String name, String descriptor)
        {
            return type.methods().stream()
                    .filter(method -> method.methodName().stringValue().equals(name) && method.methodType().stringValue().equals(descriptor))
                    .findFirst();
        }

        private static boolean hasField(ClassModel type, String name, String descriptor)
        {
            for (FieldModel field : type.fields()) {
                if (field.fieldName().stringValue().equals(name) && field.fieldType().stringValue().equals(descriptor)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The support matrix of {@code docs/trino.md}: the table after the line {@code <!-- support-matrix -->}. */
    static final class SupportMatrix
    {
        static final String MARKER = "<!-- support-matrix -->";

        private SupportMatrix() {}

        static List<List<String>> read(Path docs)
                throws IOException
        {
            List<String> lines = Files.readAllLines(docs);
            int start = lines.indexOf(MARKER);
            assertThat(start).as("%s in %s", MARKER, docs).isNotNegative();
            List<List<String>> rows = new ArrayList<>();
            int line = start + 1;
            while (line < lines.size() && lines.get(line).isBlank()) {
                line++;
            }
            // Header and separator, then rows until the table ends.
            line += 2;
            for (; line < lines.size() && lines.get(line).startsWith("|"); line++) {
                String row = lines.get(line).strip();
                rows.add(Arrays.stream(row.substring(1, row.length() - 1).split("\\|"))
                        .map(cell -> cell.strip().replace("`", ""))
                        .toList());
            }
            return rows;
        }
    }
}
