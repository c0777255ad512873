package io.chiplet.topology;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Seeded fuzzing of topology discovery (issue 15): mutated file contents through every sysfs parser, file-kind changes
 * (missing, directory, FIFO, symlink loop, link to a device, oversize, mutated text) over whole snapshots, and mutated
 * hwloc XML. The only exception allowed is {@link TopologyException}; its message names the file and is one line of
 * printable ASCII (file contents escaped). A read that does not finish in time is a hang.
 *
 * <p>The snapshots are the shared ones ({@code ../shared/fixtures/hwloc-sysfs}) when the checkout has them beside it, as
 * CI does, else core's copies of the same machines; the counts are fixed (no clock), and the seed is printed so that a
 * failure can be replayed.
 */
class TopologyFuzzTest
{
    /** Mutated contents run through every parser: the issue asks for at least 10^6. */
    static final int PARSER_CASES = 1_000_000;
    /** File-kind changes per snapshot, each followed by a whole discovery. */
    static final int FILE_CASES_PER_SNAPSHOT = 400;
    static final int XML_CASES = 2_000;

    private static final long SEED = Long.getLong("fuzz.seed", 0x15_15_15L);
    private static final List<String> SHARED = List.of(
            "20em64t-hybrid-1p6c2t+2ca4co1t", "32amd64-4s2n4c-cgroup2", "64amd64-4s2n4ca2co", "memorysidecaches", "offline-cpu0-node0");
    /**
     * Snapshots of this project's own beside the shared ones: the arm64 MIDR files, the NVIDIA driver's
     * {@code numa_status} with its GPU's PCI {@code local_cpus}, and IA-64's empty {@code shared_cpu_map}s are in no shared
     * one, nor are issue 26's: per-CPU {@code online} files without the global list, {@code physical_package_id} -1 and
     * ids shared by packages, CPU-less nodes without initiators, cache lists that leave out their own CPU.
     */
    private static final List<String> OWN = List.of("arm-midr-only", "gpu-coherent-memory", "ia64-montecito",
            "per-cpu-online", "s390-no-socket-id", "ia64-madison-shared-ids", "cpuless-no-initiators", "stale-cache-lists");
    private static final String[] TOKENS = {
            "-1", "-", ",", "0x", "ffffffff", "K", "M", "G", "\u0663", "\uff11", "99999999999999999", "9999999999999G", "\0", "\n", " ",
            "0-", "-0", "8191", "8192", "4294967296", "\u00e9", ":", "kB", "MemTotal:", "Node 0 MemTotal: ", "Cpus_allowed_list:\t", "\t", "0-8191"};

    @TempDir
    static Path temp;

    private static List<Path> roots;
    private static List<Sample> samples;

    private record Sample(String relative, String text) {}

    @BeforeAll
    static void unpack()
            throws IOException
    {
        roots = new ArrayList<>();
        Path shared = sharedFixtures();
        for (String name : java.util.stream.Stream.concat(SHARED.stream(), OWN.stream()).toList()) {
            Path target = Files.createDirectories(temp.resolve("snap-" + name));
            if (shared != null && SHARED.contains(name)) {
                untar(shared.resolve(name + ".tar.bz2"), target);
            }
            else {
                Snapshots.unpack(name.equals("32amd64-4s2n4c-cgroup2") ? "32amd64-4s2n4c-cgroup" : name, target);
            }
            try (Stream<Path> children = Files.list(target)) {
                roots.add(children.filter(Files::isDirectory).findFirst().orElseThrow());
            }
        }
        samples = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path path : walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).toList()) {
                    byte[] bytes = Files.readAllBytes(path);
                    if (bytes.length <= 4096) {
                        samples.add(new Sample(root.relativize(path).toString(), new String(bytes, StandardCharsets.ISO_8859_1)));
                    }
                }
            }
        }
        samples.sort(Comparator.comparing(Sample::relative));
    }

    @Test
    void everyParserRefusesMutatedContentsOnlyWithANamedOneLineError()
    {
        Random random = new Random(SEED);
        List<String> failures = new ArrayList<>();
        int accepted = 0;
        for (int i = 0; i < PARSER_CASES; i++) {
            Sample sample = samples.get(random.nextInt(samples.size()));
            byte[] bytes = mutate(sample.text(), random).getBytes(StandardCharsets.ISO_8859_1);
            String file = sample.relative();
            accepted += parseEveryWay(file, bytes, failures) ? 1 : 0;
            if (failures.size() > 10) {
                break;
            }
        }
        assertThat(failures).as("seed %s", SEED).isEmpty();
        // the mutations are mild enough that many contents still parse: the parsers' success paths are fuzzed too
        assertThat(accepted).isGreaterThan(PARSER_CASES / 20);
    }

    /** Runs the bytes through the decoding and every parser discovery applies; true when at least one accepted them. */
    private static boolean parseEveryWay(String file, byte[] bytes, List<String> failures)
    {
        boolean accepted = false;
        String text;
        try {
            text = SysfsFiles.text(file, bytes, bytes.length);
        }
        catch (RuntimeException e) {
            check(file, e, failures);
            return false;
        }
        List<java.util.function.Function<String, Object>> parsers = List.of(
                value -> SysfsFiles.parseList(file, value),
                value -> SysfsFiles.parseMask(file, value),
                value -> SysfsFiles.parseInt(file, value),
                value -> SysfsFiles.parseLong(file, value),
                value -> SysfsCacheReader.parseSize(file, value),
                value -> SysfsCacheReader.parseType(file, value),
                value -> SysfsNumaReader.memTotal(file, value),
                value -> ArmCorePart.parseMidr(file, value),
                value -> SysfsNumaReader.numaStatusNode(file, value),
                value -> SysfsCpuReader.parseOnline(file, value));
        // the parser discovery applies to this file, and one other (a mask where a list was, a size where an id was)
        for (var parser : List.of(parsers.get(parserFor(file)), parsers.get(Math.floorMod(file.hashCode() ^ bytes.length, parsers.size())))) {
            try {
                parser.apply(text);
                accepted = true;
            }
            catch (RuntimeException e) {
                check(file, e, failures);
            }
        }
        return accepted;
    }

    private static int parserFor(String file)
    {
        String name = file.substring(file.lastIndexOf('/') + 1);
        if (name.equals("online") && file.matches(".*/cpu/cpu[0-9]+/online")) {
            return 9;
        }
        if (name.endsWith("_list") || name.endsWith("cpulist") || name.equals("online") || name.equals("present") || name.equals("possible")
                || name.equals("offline") || name.startsWith("has_") || name.endsWith(".effective") || name.equals("nodelist")) {
            return 0;
        }
        if (name.equals("cpumap") || name.endsWith("_map") || name.endsWith("_cpus") || name.endsWith("_siblings")) {
            return 1;
        }
        if (name.endsWith("_freq") || name.endsWith("_frequency") || name.endsWith("bandwidth")) {
            return 3;
        }
        return switch (name) {
            case "size" -> 4;
            case "type" -> 5;
            case "meminfo" -> 6;
            case "midr_el1" -> 7;
            case "numa_status" -> 8;
            default -> 2;
        };
    }

    private static void check(String file, RuntimeException e, List<String> failures)
    {
        if (!(e instanceof TopologyException)) {
            failures.add(file + ": " + e);
        }
        else if (!e.getMessage().contains(file)) {
            failures.add("message does not name " + file + ": " + FileText.quote(e.getMessage()));
        }
        else if (!e.getMessage().chars().allMatch(c -> c >= ' ' && c <= '~')) {
            failures.add("message is not one line of printable ASCII: " + e.getMessage().chars()
                    .mapToObj(c -> c >= ' ' && c <= '~' ? String.valueOf((char) c) : String.format("<%04x>", c)).collect(java.util.stream.Collectors.joining()));
        }
    }

    static String mutate(String text, Random random)
    {
        StringBuilder out = new StringBuilder(text);
        int steps = 1 + random.nextInt(3);
        for (int step = 0; step < steps; step++) {
            int at = out.length() == 0 ? 0 : random.nextInt(out.length() + 1);
            switch (random.nextInt(8)) {
                case 0 -> {
                    if (at < out.length()) {
                        out.setCharAt(at, (char) random.nextInt(256));
                    }
                }
                case 1 -> out.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
                case 2 -> out.setLength(at);
                case 3 -> {
                    int end = Math.min(out.length(), at + random.nextInt(8));
                    out.delete(at, end);
                }
                case 4 -> out.insert(at, (char) ('0' + random.nextInt(10)));
                case 5 -> out.append(random.nextBoolean() ? "\0" : "\n\0garbage");
                case 6 -> out.insert(at, new String(out).substring(0, Math.min(out.length(), random.nextInt(32))));
                default -> {
                    // UTF-8 bytes of a non-ASCII digit, as they arrive from a file
                    out.insert(at, new String("\u0663".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
                }
            }
        }
        return out.toString();
    }

    @Test
    void discoveryOverBrokenSnapshotsFailsOnlyWithANamedErrorAndNeverHangs()
            throws Exception
    {
        Random random = new Random(SEED);
        List<String> failures = new ArrayList<>();
        Path fifo = temp.resolve("fifo");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo works here");
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fuzz-discovery");
            thread.setDaemon(true);
            return thread;
        });
        int degraded = 0;
        int refused = 0;
        try {
            for (Path root : roots) {
                List<Path> candidates;
                try (Stream<Path> walk = Files.walk(root)) {
                    candidates = walk.filter(path -> !path.equals(root)).filter(path -> !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) || random.nextInt(20) == 0).sorted().toList();
                }
                for (int i = 0; i < FILE_CASES_PER_SNAPSHOT; i++) {
                    Path target = candidates.get(random.nextInt(candidates.size()));
                    String change;
                    try (Restorer restorer = new Restorer(target)) {
                        change = breakFile(target, random, fifo);
                        Future<Topology> read = executor.submit(() -> SysfsTopologyReader.snapshot(root).read());
                        try {
                            Topology topology = read.get(60, TimeUnit.SECONDS);
                            assertThat(topology.online().isEmpty()).isFalse();
                            degraded += topology.unknowns().isEmpty() ? 0 : 1;
                            checkOneCpuOneChiplet(topology, failures, change);
                        }
                        catch (TimeoutException e) {
                            read.cancel(true);
                            failures.add("hang after " + change + " at " + root.relativize(target));
                            return;
                        }
                        catch (java.util.concurrent.ExecutionException e) {
                            refused++;
                            if (e.getCause() instanceof RuntimeException cause) {
                                String file = root.relativize(target).toString();
                                if (!(cause instanceof TopologyException)) {
                                    failures.add(change + " at " + file + ": " + cause);
                                }
                                else if (!cause.getMessage().startsWith("sys/") && !cause.getMessage().startsWith("proc/")) {
                                    failures.add(change + " at " + file + ": message names no file: " + FileText.quote(cause.getMessage()));
                                }
                                else if (!cause.getMessage().chars().allMatch(c -> c >= ' ' && c <= '~')) {
                                    failures.add(change + " at " + file + ": message not one printable line: " + FileText.quote(cause.getMessage()));
                                }
                            }
                            else {
                                failures.add(change + " at " + root.relativize(target) + ": " + e.getCause());
                            }
                        }
                    }
                }
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(failures).as("seed %s", SEED).isEmpty();
        assertThat(degraded).as("reads that degraded instead of failing").isPositive();
        assertThat(refused).as("reads refused with a named error").isPositive();
    }

    private static void checkOneCpuOneChiplet(Topology topology, List<String> failures, String change)
    {
        CpuSet seen = CpuSet.empty();
        for (Chiplet chiplet : topology.chiplets()) {
            if (seen.intersects(chiplet.cpus())) {
                failures.add(change + ": CPU in two chiplets " + chiplet);
            }
            seen = seen.union(chiplet.cpus());
        }
    }

    /** Replaces {@code target} with something broken; says what. */
    private static String breakFile(Path target, Random random, Path fifo)
            throws IOException
    {
        deleteRecursively(target);
        switch (random.nextInt(7)) {
            case 0 -> {
                return "missing";
            }
            case 1 -> {
                Files.createDirectory(target);
                return "directory";
            }
            case 2 -> {
                Files.createSymbolicLink(target, target.getFileName());
                return "symlink loop";
            }
            case 3 -> {
                Files.createSymbolicLink(target, Path.of("/dev/zero"));
                return "link to /dev/zero";
            }
            case 4 -> {
                Files.write(target, new byte[SysfsFiles.MAX_TABLE_BYTES + 1]);
                return "oversize";
            }
            case 5 -> {
                Files.move(fifo, target);
                return "fifo";
            }
            default -> {
                String text = samples.get(random.nextInt(samples.size())).text();
                Files.write(target, mutate(text, random).getBytes(StandardCharsets.ISO_8859_1));
                return "mutated";
            }
        }
    }

    /** Puts a file, link or directory back as it was, and the FIFO back in its place when a case used it. */
    private static final class Restorer
            implements AutoCloseable
    {
        private final Path target;
        private final Path saved;

        Restorer(Path target)
                throws IOException
        {
            this.target = target;
            this.saved = target.resolveSibling(target.getFileName() + ".fuzz-saved");
            Files.move(target, saved);
            copyBack();
        }

        private void copyBack()
                throws IOException
        {
            if (Files.isSymbolicLink(saved)) {
                Files.createSymbolicLink(target, Files.readSymbolicLink(saved));
            }
            else if (Files.isDirectory(saved)) {
                Files.createDirectory(target);
            }
            else {
                Files.copy(saved, target);
            }
        }

        @Override
        public void close()
                throws IOException
        {
            Path fifo = temp.resolve("fifo");
            if (!Files.exists(fifo, LinkOption.NOFOLLOW_LINKS) && Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(target)) {
                Files.move(target, fifo);
            }
            deleteRecursively(target);
            Files.move(saved, target);
        }
    }

    private static void deleteRecursively(Path path)
            throws IOException
    {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> walk = Files.walk(path)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        else {
            Files.deleteIfExists(path);
        }
    }

    @Test
    void hwlocXmlReaderRefusesMutatedDocumentsOnlyWithANamedOneLineError()
            throws IOException
    {
        Random random = new Random(SEED);
        List<String> documents = new ArrayList<>();
        for (String name : List.of("partial-cpufreq", "s390-books-drawers", "trailing-nul", "two-cpus-two-chiplets")) {
            documents.add(Files.readString(Snapshots.hwlocReading(name)));
        }
        Path file = temp.resolve("fuzz.xml");
        List<String> failures = new ArrayList<>();
        int accepted = 0;
        for (int i = 0; i < XML_CASES && failures.size() <= 10; i++) {
            String document = documents.get(random.nextInt(documents.size()));
            Files.writeString(file, mutateXml(document, random), StandardCharsets.UTF_8);
            try {
                Topology topology = new HwlocXmlTopologyReader(file).read(0);
                assertThat(topology.online().isEmpty()).isFalse();
                accepted++;
            }
            catch (RuntimeException e) {
                if (!(e instanceof TopologyException)) {
                    failures.add(e.toString());
                }
                else if (!e.getMessage().contains(file.toString())) {
                    failures.add("message names no file: " + FileText.quote(e.getMessage()));
                }
                else if (!e.getMessage().chars().allMatch(c -> c >= ' ' && c <= '~')) {
                    failures.add("message not one printable line: " + FileText.quote(e.getMessage()));
                }
            }
        }
        assertThat(failures).as("seed %s", SEED).isEmpty();
        assertThat(accepted).isPositive();
    }

    private static final String[] XML_ATTRIBUTES = {"os_index", "cpuset", "complete_cpuset", "allowed_cpuset", "cache_size", "local_memory", "depth", "cache_linesize", "cache_type", "nbobjs", "gp_index"};
    private static final String[] XML_VALUES = {"-1", "", "0x", "0xffffffff,,,", "99999999999999999999", "-5", "abc", "0x-1", "8192", "2147483648", "\u0663"};

    static String mutateXml(String document, Random random)
    {
        switch (random.nextInt(6)) {
            case 0 -> {
                return document.substring(0, random.nextInt(document.length()));
            }
            case 1, 2 -> {
                String attribute = XML_ATTRIBUTES[random.nextInt(XML_ATTRIBUTES.length)];
                int at = nthIndexOf(document, " " + attribute + "=\"", random);
                if (at < 0) {
                    return document;
                }
                int valueStart = at + attribute.length() + 3;
                int valueEnd = document.indexOf('"', valueStart);
                if (random.nextBoolean()) {
                    return document.substring(0, at) + document.substring(valueEnd + 1);
                }
                return document.substring(0, valueStart) + XML_VALUES[random.nextInt(XML_VALUES.length)] + document.substring(valueEnd);
            }
            case 3 -> {
                String entities = switch (random.nextInt(4)) {
                    case 0 -> "<!DOCTYPE topology [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>";
                    case 1 -> "<!DOCTYPE topology [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/evil.dtd\"> %p;]>";
                    case 2 -> "<!DOCTYPE topology [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
                            + "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">]>";
                    default -> "<!DOCTYPE topology SYSTEM \"http://127.0.0.1:9/hwloc2.dtd\">";
                };
                String withDoctype = document.replaceFirst("<!DOCTYPE[^>]*>", java.util.regex.Matcher.quoteReplacement(entities));
                String reference = random.nextBoolean() ? "&x;" : "&e;";
                return withDoctype.replaceFirst("os_index=\"0\"", "os_index=\"" + reference + "\"");
            }
            case 4 -> {
                // an element repeated or removed
                int start = nthIndexOf(document, "<object ", random);
                if (start < 0) {
                    return document;
                }
                int end = document.indexOf('>', start);
                String element = document.substring(start, end + 1);
                return random.nextBoolean() ? document.substring(0, start) + element + document.substring(start) : document.substring(0, start) + document.substring(end + 1);
            }
            default -> {
                return mutate(document, random);
            }
        }
    }

    private static int nthIndexOf(String text, String needle, Random random)
    {
        List<Integer> hits = new ArrayList<>();
        for (int at = text.indexOf(needle); at >= 0 && hits.size() < 10_000; at = text.indexOf(needle, at + 1)) {
            hits.add(at);
        }
        return hits.isEmpty() ? -1 : hits.get(random.nextInt(hits.size()));
    }

    private static Path sharedFixtures()
    {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/fixtures/hwloc-sysfs");
            if (Files.isDirectory(candidate) && SHARED.stream().allMatch(name -> Files.exists(candidate.resolve(name + ".tar.bz2")))) {
                return candidate;
            }
        }
        return null;
    }

    private static void untar(Path tarball, Path target)
            throws IOException
    {
        try {
            Process tar = new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", target.toString()).redirectErrorStream(true).start();
            String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!tar.waitFor(120, TimeUnit.SECONDS) || tar.exitValue() != 0) {
                throw new IOException("tar xjf " + tarball + " failed: " + output);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
