package io.chiplet.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a minimal procfs/sysfs tree for the perf readers: cpuinfo, perf_event_paranoid, PMUs, capabilities. */
final class PerfFixture
{
    private final Path root;

    PerfFixture(Path root)
    {
        this.root = root;
    }

    Path root()
    {
        return root;
    }

    PerfFixture cpu(String vendor, int family, int model, String modelName)
    {
        return write("proc/cpuinfo", """
                processor\t: 0
                vendor_id\t: %s
                cpu family\t: %d
                model\t\t: %d
                model name\t: %s
                stepping\t: 1

                processor\t: 1
                vendor_id\t: %s
                cpu family\t: %d
                model\t\t: %d
                model name\t: %s
                """.formatted(vendor, family, model, modelName, vendor, family, model, modelName));
    }

    PerfFixture paranoid(int level)
    {
        return write("proc/sys/kernel/perf_event_paranoid", level + "\n");
    }

    PerfFixture pmu(String name, int type)
    {
        return write("sys/bus/event_source/devices/" + name + "/type", type + "\n");
    }

    /** The PMUs a VM without a virtual PMU shows, as on the CI machine. */
    PerfFixture virtualMachinePmus()
    {
        return pmu("software", 1).pmu("tracepoint", 2).pmu("breakpoint", 5).pmu("msr", 9).pmu("uprobe", 8);
    }

    PerfFixture capEff(String hex)
    {
        return write("proc/self/status", "Name:\tjava\nCapInh:\t0000000000000000\nCapEff:\t" + hex + "\n");
    }

    PerfPlatform platform()
    {
        return PerfPlatform.read(root);
    }

    PerfFixture write(String relative, String content)
    {
        try {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            return this;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
