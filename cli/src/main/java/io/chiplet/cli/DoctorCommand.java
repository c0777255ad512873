package io.chiplet.cli;

import io.chiplet.advice.Advice;
import io.chiplet.affinity.BoundThread;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.engine.Wording;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;
import io.chiplet.perf.CounterAvailability;
import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.PerfEvent;
import io.chiplet.perf.PerfPlatform;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * {@code chiplet doctor}: for the JVM it runs in (or the one {@code --java} names), which native path it uses and
 * what works: topology, pinning, memory binding, counters, each with the reason where it does not. The plugins log and
 * report the same facts from the engine's own JVM.
 */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        description = {
                "Checks what chiplet placement can do in this JVM, with the reason for anything that does not work.",
                "The checks: the native path (FFM on JDK 22+, JNA on 17 and 21), topology, pinning, memory binding and counters.",
                "Exit code 0 when threads can be placed, 1 when not.",
        })
public final class DoctorCommand
        implements Callable<Integer>
{
    /** How one check came out. */
    public enum Outcome
    {
        OK, UNAVAILABLE, FAILED;

        String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One line of the report. */
    public record Check(String name, Outcome outcome, String detail)
    {
        public Check
        {
            requireNonNull(name, "name is null");
            requireNonNull(outcome, "outcome is null");
            requireNonNull(detail, "detail is null");
        }

        String render()
        {
            return String.format(Locale.ROOT, "%-15s %-11s %s", name, outcome.label(), detail);
        }
    }

    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    private TopologySourceOptions source;

    @Option(names = "--java", paramLabel = "JAVA",
            description = "Run the checks in this java (a JDK's bin/java or its home), e.g. the JDK a Spark cluster runs on.")
    private Path java;

    @Override
    public Integer call()
            throws IOException, InterruptedException
    {
        if (java != null) {
            return inOtherJvm(java);
        }
        List<Check> checks = checks(new DiscoveryOptions(
                Optional.ofNullable(source).flatMap(TopologySourceOptions::fsRoot),
                Optional.ofNullable(source).flatMap(TopologySourceOptions::hwlocXml),
                0));
        PrintWriter out = spec.commandLine().getOut();
        checks.forEach(check -> out.println(check.render()));
        out.flush();
        return placeable(checks) ? 0 : 1;
    }

    /** Threads can be placed: the machine was read and a thread could be pinned. */
    static boolean placeable(List<Check> checks)
    {
        return checks.stream().filter(check -> check.name().equals("topology") || check.name().equals("pinning"))
                .allMatch(check -> check.outcome() == Outcome.OK);
    }

    /** Runs every check in this JVM. */
    static List<Check> checks(DiscoveryOptions options)
    {
        List<Check> checks = new ArrayList<>();
        Runtime.Version version = Runtime.version();
        checks.add(new Check("java", Outcome.OK, version + " (" + System.getProperty("java.vendor", "unknown vendor") + ") at "
                + System.getProperty("java.home")));
        NativePath path = NativeAccess.path();
        checks.add(new Check("native path", path.available() ? Outcome.OK : Outcome.UNAVAILABLE, path.toString()));
        nativeAccessWarning().ifPresent(checks::add);

        Optional<Topology> topology = discover(options, checks);
        // Pinning, memory binding and counters are what this JVM can do on this machine: they are always probed live,
        // and against the live kernel's perf facts, whatever source the topology came from.
        checks.add(probe("pinning", path, DoctorCommand::pinning));
        checks.add(probe("memory binding", path, () -> memoryBinding(topology, options)));
        checks.add(probe("counters", path, DoctorCommand::counters));
        if (options.fsRoot().isPresent() || options.hwlocXml().isPresent()) {
            String source = options.fsRoot().map(root -> "the snapshot " + root).orElseGet(() -> "the hwloc XML " + options.hwlocXml().orElseThrow());
            // Not "ok" beside a topology that could not be read from that very source.
            checks.add(topology.isPresent()
                    ? new Check("sources", Outcome.OK, "topology from " + source + "; pinning, memory binding and counters probed live on this machine")
                    : new Check("sources", Outcome.FAILED, "no topology from " + source + " (above); pinning, memory binding and counters probed live on this machine"));
        }
        return List.copyOf(checks);
    }

    private static Optional<Topology> discover(DiscoveryOptions options, List<Check> checks)
    {
        try {
            Topology machine = TopologyDiscovery.discover(options);
            checks.add(new Check("topology", Outcome.OK, Wording.count(machine.chiplets().size(), "chiplet") + ", " + Wording.count(machine.cores().size(), "core") + ", CPUs "
                    + machine.allowed().toList() + " allowed (" + machine.source() + ")"
                    + (machine.unknowns().isEmpty() ? "" : "; unknown: " + String.join("; ", machine.unknowns()))));
            return Optional.of(machine);
        }
        catch (RuntimeException e) {
            checks.add(new Check("topology", Outcome.FAILED, ChipletCli.describe(e)));
            return Optional.empty();
        }
    }

    private static Check probe(String name, NativePath path, Supplier<String> check)
    {
        if (!path.available()) {
            return new Check(name, Outcome.UNAVAILABLE, "no native path: " + path.reason());
        }
        try {
            return new Check(name, Outcome.OK, check.get());
        }
        catch (UnsupportedOperationException e) {
            return new Check(name, Outcome.UNAVAILABLE, ChipletCli.describe(e));
        }
        catch (RuntimeException | LinkageError e) {
            return new Check(name, Outcome.FAILED, ChipletCli.describe(e));
        }
    }

    /** Binds this thread to each allowed CPU in turn, reads the mask back, and restores it: the plugins' binding API. */
    private static String pinning()
    {
        ThreadBinder binder = ThreadBinder.live();
        CpuSet allowed = binder.pinnable().cpus();
        for (int cpu : allowed.toArray()) {
            BoundThread bound = binder.bindCurrentThread(binder.prepare(CpuSet.of(cpu), Optional.empty()));
            try {
                CpuSet read = binder.currentMask();
                if (!read.equals(CpuSet.of(cpu))) {
                    throw new IllegalStateException("pinned to CPU " + cpu + " but the kernel reports " + read.toList());
                }
            }
            finally {
                bound.restore();
            }
        }
        return "pinned to each of CPUs " + allowed.toList() + " and restored (backend " + binder.backend().name() + ", through "
                + NativeAccess.path().kind().label() + ")";
    }

    /** Prefers a NUMA node for this thread's memory, reads the policy back, and restores it. */
    private static String memoryBinding(Optional<Topology> topology, DiscoveryOptions options)
    {
        MemoryPolicy before = MemoryPolicy.ofCurrentThread();
        // A snapshot's node need not exist here: probe this machine's first node with CPUs (node 0 where it cannot be read).
        Optional<Topology> live = options.fsRoot().isPresent() || options.hwlocXml().isPresent() ? Optional.empty() : topology;
        int node = live.flatMap(machine -> machine.numaNodes().stream().filter(n -> !n.cpus().isEmpty()).findFirst()).map(n -> n.id()).orElse(0);
        MemoryPolicy preferred = MemoryPolicy.preferred(node);
        try {
            preferred.applyToCurrentThread();
            MemoryPolicy read = MemoryPolicy.ofCurrentThread();
            if (!read.equals(preferred)) {
                throw new IllegalStateException("set " + preferred + " but the kernel reports " + read);
            }
        }
        finally {
            before.applyToCurrentThread();
        }
        return "preferred node " + node + " set, read back and restored (was " + before.describe() + ")";
    }

    /** Whether this thread can count a software event and the cache-fill events the adaptive policy wants. */
    private static String counters()
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        CounterScope self = CounterScope.callingThread();
        PerfEvent taskClock = EventCatalog.TASK_CLOCK;
        String software = describe(CounterAvailability.assess(taskClock, self, platform, CounterAvailability.SYSCALL_PROBE).unavailableReason(), taskClock.name());
        String fills = describe(CounterAvailability.assessFillSources(EventCatalog.select(platform), self, platform, CounterAvailability.SYSCALL_PROBE)
                .unavailableReason(), "cache-fill sources (adaptive policy)");
        return software + "; " + fills;
    }

    private static String describe(Optional<String> unavailableReason, String what)
    {
        return unavailableReason.map(reason -> what + " unavailable: " + reason).orElse(what + " available");
    }

    /** On JDK 22+ without --enable-native-access the JVM prints a warning at the first native call: say so. */
    private static Optional<Check> nativeAccessWarning()
    {
        if (NativeAccess.path().kind() != NativePath.Kind.FFM) {
            return Optional.empty();
        }
        try {
            Module module = DoctorCommand.class.getModule();
            boolean enabled = (boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(module);
            return Optional.of(new Check("native access", enabled ? Outcome.OK : Outcome.UNAVAILABLE, enabled
                    ? "enabled for " + (module.isNamed() ? module.getName() : "the class path")
                    : "not enabled: the JVM warns at the first native call; add --enable-native-access=ALL-UNNAMED (Spark 4.2+'s launcher does)"));
        }
        catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }

    /** The oldest Java the checks run on (JNA's path); the class files need it too. */
    static final int MIN_OTHER_JAVA = 17;
    private static final Pattern JAVA_VERSION = Pattern.compile("version \"(1\\.)?([0-9]+)");

    /** The feature version {@code executable -version} names (8 for 1.8), or 0 when it names none: not a java. */
    static int javaFeatureVersion(Path executable)
            throws IOException, InterruptedException
    {
        Process process = new ProcessBuilder(executable.toString(), "-version").redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readNBytes(64 * 1024), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return 0;
        }
        Matcher matcher = JAVA_VERSION.matcher(output);
        return process.exitValue() == 0 && matcher.find() ? Integer.parseInt(matcher.group(2)) : 0;
    }

    /** Runs {@code chiplet doctor} with the same options in the JVM at {@code java}, on this JVM's class path. */
    private int inOtherJvm(Path java)
            throws IOException, InterruptedException
    {
        Path executable = Files.isDirectory(java) ? java.resolve("bin/java") : java;
        if (!Files.isExecutable(executable)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--java " + java + ": expected a java executable or a JDK home but "
                    + (Files.exists(executable) ? executable + " is not executable" : executable + " does not exist"));
        }
        int feature = javaFeatureVersion(executable);
        if (feature < MIN_OTHER_JAVA) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--java " + java + ": expected a JDK " + MIN_OTHER_JAVA
                    + " or later but " + executable + (feature == 0 ? " -version names no Java version" : " is Java " + feature));
        }
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-cp", System.getProperty("java.class.path"),
                ChipletCli.class.getName(), "doctor"));
        if (source != null) {
            source.fsRoot().ifPresent(root -> command.addAll(List.of("--fs-root", root.toString())));
            source.hwlocXml().ifPresent(xml -> command.addAll(List.of("--hwloc-xml", xml.toString())));
        }
        Process process = new ProcessBuilder(command).inheritIO().start();
        return process.waitFor();
    }
}
