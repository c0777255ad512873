package io.chiplet.cli;

import io.chiplet.advice.Advice;
import io.chiplet.advice.ClusterAdvice;
import io.chiplet.advice.ClusterAdvice.ClusterManager;
import io.chiplet.discovery.BundledMachines;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Engine;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.placement.TestTopologies;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import javax.xml.parsers.DocumentBuilderFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The invariants a user pasting {@code chiplet advise} output relies on, over many machines (the bundled hwloc XMLs,
 * every sysfs snapshot of the tests' resources, the hand-written test topologies and generated ones with random
 * cpusets) and every combination of options:
 * <ul>
 *   <li>task slots never exceed the CPUs the host, pod or container gets;</li>
 *   <li>{@code spark.chiplet.mode=executor} never gets more cores than the smallest chiplet it may lease;</li>
 *   <li>each reason's numbers are the value it explains;</li>
 *   <li>every key is a real key of its engine's or cluster manager's release range ({@code advice-keys/*.txt}, each
 *       naming its source) or one of the few labels for quantities applied by hand;</li>
 *   <li>every fragment parses as what it says it is (YAML with SnakeYAML, XML, properties, shell with {@code bash -n})
 *       and says what the settings say.</li>
 * </ul>
 */
class AdviceInvariantsTest
{
    private static final Pattern COUNT_NOUN = Pattern.compile("\\b1 (chiplets|workers|executors|cores|CPUs|physical cores|hosts)\\b");
    private static final Map<String, Set<String>> KEYS = new LinkedHashMap<>();
    private static final List<Topology> MACHINES = new ArrayList<>();
    @TempDir
    static Path unpacked;

    @BeforeAll
    static void loadMachines()
            throws IOException
    {
        for (String list : List.of("spark", "trino", "kubelet", "yarn", "labels")) {
            KEYS.put(list, keys(list));
        }
        BundledMachines.load(unpacked).forEach(machine -> MACHINES.add(machine.topology()));
        MACHINES.addAll(TestTopologies.all());
    }

    private static Path resource(String name)
    {
        try {
            return Path.of(Objects.requireNonNull(AdviceInvariantsTest.class.getResource(name), name).toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> keys(String list)
            throws IOException
    {
        Set<String> keys = new TreeSet<>();
        for (String line : Files.readAllLines(resource("/advice-keys/" + list + ".txt"), StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                keys.add(line.strip());
            }
        }
        return keys;
    }

    /** The options of one {@code chiplet advise} run. */
    record Options(Engine engine, Optional<ClusterManager> manager, OptionalInt workersPerHost, OptionalLong dataBytes, OptionalInt hosts) {}

    @Test
    void everyBundledMachineWithEveryOptionCombination()
    {
        assertThat(MACHINES).hasSizeGreaterThan(30);
        int checked = 0;
        for (Topology topology : MACHINES) {
            for (Options options : combinations(topology)) {
                checked += check(topology, topology.allowed(), options) ? 1 : 0;
            }
        }
        // Most combinations give advice; the rest were refused with a reason that check() verified.
        assertThat(checked).isGreaterThan(MACHINES.size() * 10);
    }

    @Property(tries = 300, seed = "20261128")
    void generatedMachinesWithRandomCpusets(@ForAll("machines") Topology topology, @ForAll("allowedSeeds") long seed, @ForAll("options") Options options)
    {
        CpuSet allowed = randomSubset(topology.allowed(), seed);
        check(topology, allowed, options);
    }

    @Provide
    Arbitrary<Topology> machines()
    {
        return Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 8),
                        Arbitraries.integers().between(1, 2), Arbitraries.of(1, 2, 4))
                .as((packages, chiplets, cores, threads, nodes) -> {
                    int numaNodes = nodes == 1 || (nodes % packages == 0 && chiplets % (nodes / packages) == 0) ? nodes : 1;
                    return SyntheticTopologies.uniform("synthetic:" + packages + "x" + chiplets + "x" + cores + "x" + threads + "/" + numaNodes,
                            packages, chiplets, cores, threads, 32L << 20, numaNodes);
                });
    }

    @Provide
    Arbitrary<Long> allowedSeeds()
    {
        // 0: the whole machine; otherwise a random cpuset.
        return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs());
    }

    @Provide
    Arbitrary<Options> options()
    {
        return Combinators.combine(Arbitraries.of(Engine.class),
                        Arbitraries.of(Optional.<ClusterManager>empty(), Optional.of(ClusterManager.KUBERNETES), Optional.of(ClusterManager.YARN),
                                Optional.of(ClusterManager.STANDALONE)),
                        Arbitraries.integers().between(0, 40), Arbitraries.of(OptionalLong.empty(), OptionalLong.of(1L << 30), OptionalLong.of(1L << 40)),
                        Arbitraries.of(OptionalInt.empty(), OptionalInt.of(1), OptionalInt.of(5)))
                .as((engine, manager, workers, data, hosts) -> manager.isPresent() && manager.get() != ClusterManager.STANDALONE
                        ? new Options(engine, manager, OptionalInt.empty(), OptionalLong.empty(), OptionalInt.empty())
                        : new Options(engine, manager, workers == 0 ? OptionalInt.empty() : OptionalInt.of(workers), data, hosts));
    }

    private static CpuSet randomSubset(CpuSet cpus, long seed)
    {
        if (seed == 0) {
            return cpus;
        }
        java.util.Random random = new java.util.Random(seed);
        int[] kept = cpus.stream().filter(cpu -> random.nextInt(4) != 0).toArray();
        return kept.length == 0 ? CpuSet.of(cpus.first()) : CpuSet.of(kept);
    }

    private static List<Options> combinations(Topology topology)
    {
        int chiplets = Math.max(1, (int) topology.chiplets().stream().filter(chiplet -> chiplet.cpus().intersects(topology.allowed())).count());
        int cpus = topology.allowed().size();
        List<Options> all = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            for (ClusterManager manager : ClusterManager.values()) {
                all.add(new Options(engine, Optional.of(manager), OptionalInt.empty(), OptionalLong.empty(), OptionalInt.empty()));
            }
            all.add(new Options(engine, Optional.of(ClusterManager.KUBERNETES), OptionalInt.of(2), OptionalLong.empty(), OptionalInt.empty()));
            for (int workers : new TreeSet<>(List.of(0, 1, 2, 4, Math.max(1, chiplets / 2), chiplets, chiplets + 1, cpus, cpus + 1, 99))) {
                for (OptionalInt hosts : List.of(OptionalInt.empty(), OptionalInt.of(3))) {
                    OptionalInt perHost = workers == 0 ? OptionalInt.empty() : OptionalInt.of(workers);
                    all.add(new Options(engine, Optional.empty(), perHost, OptionalLong.of(10L << 30), hosts));
                    all.add(new Options(engine, Optional.of(ClusterManager.STANDALONE), perHost, OptionalLong.empty(), hosts));
                }
            }
        }
        return all;
    }

    /** Checks one run's advice; false where it was refused (with a reason checked here). */
    private static boolean check(Topology topology, CpuSet allowed, Options options)
    {
        Usable usable = Usable.of(topology, allowed);
        ClusterAdvice advice;
        try {
            advice = options.manager().isPresent()
                    ? ClusterAdvice.advise(options.manager().get(), options.engine(), topology, allowed, options.workersPerHost(), options.dataBytes(), options.hosts())
                    : new ClusterAdvice(Advice.advise(options.engine(), topology, allowed, options.workersPerHost(), options.dataBytes(), options.hosts()), List.of());
        }
        catch (IllegalArgumentException e) {
            assertRefusedForAReason(topology, usable, options, e.getMessage());
            return false;
        }
        String where = topology.source() + " allowed " + allowed.toList() + " " + options;
        Map<String, String> values = new LinkedHashMap<>();
        for (AdvisedSetting setting : advice.settings()) {
            if (!setting.key().equals("note")) {
                assertThat(values.put(setting.key(), setting.value())).as(where + ": %s twice", setting.key()).isNull();
            }
            assertKnownKey(setting.key(), where);
            assertThat(COUNT_NOUN.matcher(setting.reason()).find()).as(where + ": plural after 1 in: " + setting.reason()).isFalse();
        }
        assertSlotsFit(usable, options, values, where);
        assertReasonsMatchValues(usable, options, advice.settings(), where);
        for (ClusterAdvice.Fragment fragment : advice.fragments()) {
            assertThat(COUNT_NOUN.matcher(fragment.title()).find()).as(where + ": plural after 1 in: " + fragment.title()).isFalse();
            assertFragmentParsesAndAgrees(fragment, values, where);
        }
        return true;
    }

    /** The usable part of a topology as the invariants see it: chiplets with allowed CPUs, their cores with one. */
    record Usable(int cpus, int cores, List<Integer> coresPerChiplet, int smallestWholeChiplet)
    {
        static Usable of(Topology topology, CpuSet allowed)
        {
            CpuSet usable = allowed.intersect(topology.online());
            List<Integer> perChiplet = new ArrayList<>();
            int smallestWhole = Integer.MAX_VALUE;
            for (Chiplet chiplet : topology.chiplets()) {
                if (chiplet.cpus().intersects(usable)) {
                    perChiplet.add((int) topology.cores().stream().filter(core -> core.cpus().intersects(usable) && chiplet.cpus().containsAll(core.cpus())).count());
                }
                // Kubernetes and YARN hand out whole chiplets only (a NUMA node, an L3 group).
                if (usable.containsAll(chiplet.cpus())) {
                    smallestWhole = Math.min(smallestWhole, (int) topology.cores().stream().filter(core -> chiplet.cpus().containsAll(core.cpus())).count());
                }
            }
            int cores = (int) topology.cores().stream().filter(core -> core.cpus().intersects(usable)).count();
            return new Usable(usable.size(), cores, perChiplet, smallestWhole);
        }

        int chiplets()
        {
            return Math.max(1, coresPerChiplet.size());
        }

        int smallestChiplet()
        {
            return coresPerChiplet.stream().mapToInt(Integer::intValue).min().orElse(cores);
        }
    }

    private static void assertRefusedForAReason(Topology topology, Usable usable, Options options, String message)
    {
        String where = topology.source() + " " + options + ": " + message;
        assertThat(message).as(where).isNotBlank();
        if (options.workersPerHost().isPresent() && options.workersPerHost().getAsInt() > usable.cores()) {
            assertThat(message).as(where).contains("more than this host's " + usable.cores());
            return;
        }
        if (options.manager().isPresent() && options.manager().get() != ClusterManager.STANDALONE) {
            if (options.workersPerHost().isPresent() || options.dataBytes().isPresent() || options.hosts().isPresent()) {
                assertThat(message).as(where).contains("apply without --cluster-manager or with standalone");
                return;
            }
            if (options.manager().get() == ClusterManager.YARN && options.engine() == Engine.TRINO) {
                assertThat(message).as(where).contains("Trino does not run on YARN");
                return;
            }
            if (message.contains("no chiplet lies wholly within the allowed CPUs") || message.contains("leaves no whole core for a pod")) {
                return;
            }
        }
        fail("refused without a reason the invariants know: " + where);
    }

    private static void assertKnownKey(String key, String where)
    {
        String bare = key.startsWith("kubelet ") ? key.substring("kubelet ".length()) : key;
        boolean known = KEYS.values().stream().anyMatch(keys -> keys.contains(bare));
        assertThat(known).as(where + ": \"" + key + "\" is in none of advice-keys/*.txt").isTrue();
    }

    private static int intValue(Map<String, String> values, String key)
    {
        return Integer.parseInt(values.get(key));
    }

    private static void assertSlotsFit(Usable usable, Options options, Map<String, String> values, String where)
    {
        String podCpu = values.containsKey("executor pod cpu (requests = limits)") ? "executor pod cpu (requests = limits)" : "worker pod cpu (requests = limits)";
        if (values.containsKey(podCpu)) {
            int pod = intValue(values, podCpu);
            String pods = podCpu.startsWith("executor") ? "executor pods per node" : "worker pods per node";
            assertThat(pod).as(where + ": pod CPUs").isPositive();
            assertThat(pod * intValue(values, pods)).as(where + ": pods' CPUs within the host's").isLessThanOrEqualTo(usable.cpus());
            for (String slots : List.of("spark.executor.cores", "task.concurrency")) {
                if (values.containsKey(slots)) {
                    assertThat(intValue(values, slots)).as(where + ": " + slots + " within the pod's " + pod + " CPUs").isBetween(1, pod);
                }
            }
            if (values.containsKey("spark.kubernetes.executor.request.cores")) {
                assertThat(values.get("spark.kubernetes.executor.request.cores")).isEqualTo(values.get(podCpu));
                assertThat(values.get("spark.kubernetes.executor.limit.cores")).isEqualTo(values.get(podCpu));
            }
        }
        else if (values.containsKey("executors per NUMA node")) {
            // YARN: a container is sized to one chiplet.
            assertThat(intValue(values, "spark.executor.cores")).as(where).isBetween(1, usable.smallestWholeChiplet());
        }
        else {
            int workers = intValue(values, values.containsKey("executors per host") ? "executors per host" : "workers per host");
            assertThat(workers).as(where).isEqualTo(options.workersPerHost().orElse(usable.chiplets()));
            String slots = options.engine() == Engine.SPARK ? "spark.executor.cores" : "task_concurrency";
            assertThat(workers * intValue(values, slots)).as(where + ": " + workers + " x " + slots + " within the host's " + usable.cpus() + " CPUs")
                    .isLessThanOrEqualTo(usable.cpus());
        }
        if ("executor".equals(values.get("spark.chiplet.mode"))) {
            int smallest = options.manager().isPresent() && options.manager().get() != ClusterManager.STANDALONE ? usable.smallestWholeChiplet() : usable.smallestChiplet();
            assertThat(intValue(values, "spark.executor.cores")).as(where + ": executor mode within the smallest chiplet's cores")
                    .isLessThanOrEqualTo(smallest);
        }
        if (values.containsKey("spark.executor.memory") && values.containsKey("executor pod memory (requests = limits)")) {
            assertThat(sparkBytes(values.get("spark.executor.memory")) + sparkBytes(values.get("spark.executor.memoryOverhead")))
                    .as(where + ": heap and overhead fill the pod").isEqualTo(kubernetesBytes(values.get("executor pod memory (requests = limits)")));
        }
    }

    private static long sparkBytes(String value)
    {
        long number = Long.parseLong(value.substring(0, value.length() - 1));
        return value.endsWith("g") ? number << 30 : number << 20;
    }

    private static long kubernetesBytes(String value)
    {
        long number = Long.parseLong(value.substring(0, value.length() - 2));
        return value.endsWith("Gi") ? number << 30 : number << 20;
    }

    private static int number(String reason, String regex, String where)
    {
        Matcher matcher = Pattern.compile(regex).matcher(reason);
        assertThat(matcher.find()).as(where + ": /" + regex + "/ in: " + reason).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static void assertReasonsMatchValues(Usable usable, Options options, List<AdvisedSetting> settings, String where)
    {
        for (AdvisedSetting setting : settings) {
            String at = where + ": " + setting.key() + "=" + setting.value() + " (" + setting.reason() + ")";
            String value = setting.value();
            switch (setting.key()) {
                case "spark.executor.cores" -> {
                    // The reason ends in, or names, the number of cores it gives.
                    assertThat(setting.reason()).as(at).containsPattern("(^|[^0-9])(" + value + " (physical )?cores?\\b|= " + value + "\\b)");
                }
                case "task.concurrency", "task_concurrency" -> {
                    int cores = number(setting.reason(), "not above the (?:pod's )?([0-9]+) physical cores?", at);
                    int concurrency = Integer.parseInt(value);
                    assertThat(Integer.bitCount(concurrency)).as(at).isEqualTo(1);
                    assertThat(concurrency).as(at).isLessThanOrEqualTo(cores);
                    assertThat(concurrency * 2 > cores || concurrency == 64).as(at + ": the largest power of two").isTrue();
                }
                case "executor pod cpu (requests = limits)", "worker pod cpu (requests = limits)" ->
                        assertThat(setting.reason()).as(at).containsPattern("(one chiplet|: )" + "[^;]*?\\b" + value + " CPUs?\\b");
                case "executor pods per node", "worker pods per node" -> {
                    if (setting.reason().startsWith("one chiplet only")) {
                        assertThat(value).as(at).isEqualTo("1");
                    }
                    else {
                        assertThat(Integer.parseInt(value)).as(at).isEqualTo(number(setting.reason(), "\\(([0-9]+) chiplets\\)", at) - 1);
                    }
                }
                case "executors per host", "workers per host" -> {
                    if (options.workersPerHost().isEmpty()) {
                        assertThat(Integer.parseInt(value)).as(at).isEqualTo(number(setting.reason(), "\\(([0-9]+) chiplets?\\)", at));
                    }
                    else {
                        assertThat(setting.reason()).as(at).startsWith("as given");
                    }
                }
                case "min_hash_partition_count" -> {
                    int workers = number(setting.reason(), "\\(([0-9]+) workers?\\)", at);
                    assertThat(Integer.parseInt(value)).as(at).isEqualTo(Math.min(workers, 4));
                    assertThat(workers).as(at + ": the cluster's workers").isEqualTo(workersOf(settings) * options.hosts().orElseThrow());
                    if (workers >= 4) {
                        assertThat(setting.reason()).as(at).contains("(" + value + ")");
                    }
                }
                case "max_hash_partition_count" -> {
                    int workers = number(setting.reason(), "cluster's ([0-9]+) workers?", at);
                    assertThat(workers).as(at).isEqualTo(workersOf(settings) * options.hosts().orElseThrow());
                    assertThat(Long.parseLong(value) % workers).as(at).isZero();
                    assertThat(setting.reason()).as(at).contains(value);
                }
                case "spark.sql.shuffle.partitions", "spark.default.parallelism" -> assertThat(setting.reason()).as(at).startsWith(value + " = ");
                default -> {
                }
            }
        }
    }

    private static int workersOf(List<AdvisedSetting> settings)
    {
        return settings.stream().filter(setting -> setting.key().equals("workers per host") || setting.key().equals("executors per host"))
                .mapToInt(setting -> Integer.parseInt(setting.value())).findFirst().orElseThrow();
    }

    private static void assertFragmentParsesAndAgrees(ClusterAdvice.Fragment fragment, Map<String, String> values, String where)
    {
        String at = where + ": fragment \"" + fragment.title() + "\"\n" + fragment.text();
        switch (fragment.syntax()) {
            case "yaml" -> {
                Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(fragment.text());
                assertThat(document).as(at).isInstanceOf(Map.class);
                Map<?, ?> map = (Map<?, ?>) document;
                if (map.containsKey("kind")) {
                    assertThat(map.get("kind")).as(at).isEqualTo("KubeletConfiguration");
                    for (Object key : map.keySet()) {
                        assertThat(KEYS.get("kubelet")).as(at).contains(key.toString());
                    }
                    if (map.get("cpuManagerPolicyOptions") instanceof Map<?, ?> policyOptions) {
                        for (Object option : policyOptions.keySet()) {
                            assertThat(KEYS.get("kubelet")).as(at).contains("cpuManagerPolicyOptions " + option);
                            assertThat(policyOptions.get(option)).as(at + ": option values are strings").isEqualTo("true");
                        }
                    }
                    assertThat(map.get("reservedSystemCPUs")).as(at).isEqualTo(values.get("kubelet reservedSystemCPUs"));
                    assertThat(map.get("memoryManagerPolicy")).as(at).isEqualTo(values.get("kubelet memoryManagerPolicy"));
                }
                else {
                    Map<?, ?> resources = (Map<?, ?>) map.get("resources");
                    assertThat(resources).as(at).isNotNull();
                    String pod = values.containsKey("executor pod cpu (requests = limits)") ? "executor pod " : "worker pod ";
                    for (String side : List.of("requests", "limits")) {
                        Map<?, ?> quantities = (Map<?, ?>) resources.get(side);
                        assertThat(quantities.get("cpu")).as(at).isEqualTo(values.get(pod + "cpu (requests = limits)"));
                        assertThat(String.valueOf(quantities.get("memory"))).as(at).isIn(values.get(pod + "memory (requests = limits)"),
                                "<chiplet's share of node memory>");
                    }
                }
            }
            case "xml" -> {
                Document document;
                try {
                    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                    document = factory.newDocumentBuilder().parse(new InputSource(new StringReader("<configuration>\n" + fragment.text() + "</configuration>\n")));
                }
                catch (Exception e) {
                    throw new AssertionError(at + ": not well-formed XML: " + e.getMessage(), e);
                }
                NodeList properties = document.getElementsByTagName("property");
                assertThat(properties.getLength()).as(at).isPositive();
                for (int i = 0; i < properties.getLength(); i++) {
                    org.w3c.dom.Element property = (org.w3c.dom.Element) properties.item(i);
                    String name = property.getElementsByTagName("name").item(0).getTextContent();
                    assertThat(KEYS.get("yarn")).as(at).contains(name);
                    assertThat(property.getElementsByTagName("value").item(0).getTextContent()).as(at).isEqualTo(values.get(name));
                }
            }
            case "properties" -> {
                Properties properties = new Properties();
                try {
                    properties.load(new StringReader(fragment.text()));
                }
                catch (IOException e) {
                    throw new AssertionError(at, e);
                }
                for (String line : fragment.text().lines().toList()) {
                    if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("-X")) {
                        assertThat(line).as(at).contains("=");
                        String key = line.substring(0, line.indexOf('='));
                        assertThat(KEYS.values().stream().anyMatch(keys -> keys.contains(key))).as(at + ": key " + key).isTrue();
                        if (values.containsKey(key)) {
                            assertThat(line.substring(line.indexOf('=') + 1)).as(at + ": " + key + " as in the settings").isEqualTo(values.get(key));
                        }
                    }
                }
            }
            case "shell" -> assertThat(bashSyntaxErrors(fragment.text())).as(at).isEmpty();
            default -> fail(at + ": unknown syntax " + fragment.syntax());
        }
    }

    private static String bashSyntaxErrors(String script)
    {
        try {
            Process bash = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
            bash.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
            bash.getOutputStream().close();
            try (InputStream in = bash.getInputStream()) {
                String output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
                return bash.exitValue() == 0 ? "" : output;
            }
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void theIssuesExamplesHoldNow()
    {
        Topology twoCpus = MACHINES.stream().filter(topology -> topology.source().contains("vm-no-caches") || topology.online().size() == 2)
                .findFirst().orElseThrow();
        assertThat(twoCpus.online().size()).isEqualTo(2);
        Topology epyc = MACHINES.stream().filter(topology -> topology.source().contains("AMD-Zen3-2xEpyc-7763")).findFirst().orElseThrow();
        List<AdvisedSetting> four = Advice.advise(Engine.SPARK, epyc, epyc.allowed(), OptionalInt.of(4), OptionalLong.empty());
        assertThat(four).filteredOn(setting -> setting.key().equals("spark.chiplet.mode")).extracting(AdvisedSetting::value).containsExactly("task");
        assertThatThrownBy(() -> Advice.advise(Engine.SPARK, twoCpus, twoCpus.allowed(), OptionalInt.of(99), OptionalLong.empty()))
                .hasMessageContaining("99 is more than this host's 2 physical cores");
    }
}
