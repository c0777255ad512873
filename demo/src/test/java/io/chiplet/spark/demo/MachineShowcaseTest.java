package io.chiplet.spark.demo;

import io.chiplet.advice.Advice;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.measure.OnOffComparison;
import io.chiplet.measure.PairedBootstrap;
import io.chiplet.measure.RatioEstimate;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MachineShowcaseTest
{
    @Test
    void showsTheDualEpycsChipletsSlotsAndTheDriversOwnSettingsThenThePapersFiguresAsTheirs()
            throws Exception
    {
        String shown = show(BundledMachine.ALL.get(0), Map.of());

        assertThat(shown)
                .contains("Chiplets: 16 on 2 packages, 2 NUMA nodes, 256 CPUs")
                .contains("  chiplet 15: package 1, NUMA node 1, L3 32 MiB, CPUs 120-127,248-255")
                .contains("policy auto -> wicp-mixed")
                // wicp-mixed deals the slots round-robin over the chiplets of both sockets, each slot on its whole chiplet
                .contains("  16 slots (0, 16, 32, ..., 240) pinned to CPUs 0-7,128-135 (chiplet 0), memory preferred on NUMA node 0")
                .contains("  16 slots (1, 17, 33, ..., 241) pinned to CPUs 64-71,192-199 (chiplet 8), memory preferred on NUMA node 1")
                .contains("What the papers measured on this class of machine (their figures, not measured by this project or this demo):")
                .contains("[Fogli, Zhao, Pietzuch, Bandle, Giceva, \"OLAP on Modern Chiplet-Based Processors\", PVLDB 17(11), 2024]");
        // The settings are the driver's code's answer for that topology, not a copy of it.
        for (AdvisedSetting setting : MachineShowcase.driverSettings(read(BundledMachine.ALL.get(0)))) {
            assertThat(shown).contains("  " + setting.key() + "=" + setting.value() + "  (" + setting.reason() + ")");
        }
        assertThat(shown).contains("spark.sql.shuffle.partitions=384");
    }

    @Test
    void followsTheUsersPolicyAsThePluginWould()
            throws Exception
    {
        String shown = show(BundledMachine.ALL.get(1), Map.of(SparkSettings.POLICY, "wim"));

        assertThat(shown)
                .contains("Chiplets: 8 on 2 packages, 8 NUMA nodes, 224 CPUs")
                .contains("policy wim -> wim")
                .doesNotContain("(chiplet 0)");
    }

    @Test
    void everyBundledMachineReadsAndNamesItsPapers()
            throws Exception
    {
        for (BundledMachine machine : BundledMachine.ALL) {
            String shown = show(machine, Map.of());
            assertThat(shown).contains("== " + machine.title()).doesNotContain("L3 unknown");
            assertThat(machine.studies()).isNotEmpty();
            machine.studies().forEach(figure -> assertThat(shown).contains(figure.paper().title()).doesNotContain("seeds/"));
        }
        assertThat(show(BundledMachine.ALL.get(2), Map.of()))
                .contains("Chiplets: 1 on 1 package, 1 NUMA node, 20 CPUs")
                .contains("  performance cores: CPUs 0-11")
                .contains("  efficiency cores: CPUs 12-19")
                // the executor's routing by kind of work, on the CPUs core's HybridRouting gives each class
                .contains("a task of a stage that reads shuffles or computes runs on the performance cores (CPUs 0-11), a scan on the efficiency cores (CPUs 12-19)");
        // A machine of one kind of core has no routing to show.
        assertThat(show(BundledMachine.ALL.get(0), Map.of())).doesNotContain("efficiency cores");
    }

    @Test
    void shortensLongSlotLists()
    {
        assertThat(MachineShowcase.slotList(List.of(3))).isEqualTo("slot 3");
        assertThat(MachineShowcase.slotList(List.of(0, 1, 2, 3))).isEqualTo("slots 0-3");
        assertThat(MachineShowcase.slotList(List.of(0, 8, 16, 24, 32, 40))).isEqualTo("slots 0,8,16,24,32,40");
        assertThat(MachineShowcase.slotList(List.of(0, 8, 16, 24, 32, 40, 48, 56))).isEqualTo("8 slots (0, 8, 16, ..., 56)");
    }

    @Test
    void theDemosVerdictAndThePluginsReportJudgeTheSameRoundsAlike()
    {
        List<Integer> queries = List.of(1, 6);
        // on/off per round: faster by 20 % with little scatter; the same with wide scatter; one round.
        OnOffComparison faster = new OnOffComparison(queries, List.of(Map.of(1, 0.80, 6, 1.62), Map.of(1, 0.81, 6, 1.58), Map.of(1, 0.79, 6, 1.60)),
                List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0)));
        OnOffComparison noisy = new OnOffComparison(queries, List.of(Map.of(1, 0.6, 6, 2.6), Map.of(1, 1.3, 6, 1.4), Map.of(1, 0.9, 6, 2.2)),
                List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0)));
        OnOffComparison oneRound = new OnOffComparison(queries, List.of(Map.of(1, 0.8, 6, 1.6)), List.of(Map.of(1, 1.0, 6, 2.0)));

        assertThat(ChipletDemo.verdict(faster.estimate(PairedBootstrap.standard()))).startsWith("With the plugin these queries ran 20.");
        assertThat(ChipletDemo.roundsReport(faster).verdict()).isEqualTo("placed faster");
        assertThat(ChipletDemo.roundsReport(faster).summaryLine()).startsWith("Chiplet placement measured on/off for the demo's TPC-H queries: speed-up 1.2");
        assertThat(ChipletDemo.verdict(noisy.estimate(PairedBootstrap.standard()))).startsWith("No difference measurable");
        assertThat(ChipletDemo.roundsReport(noisy).verdict()).isEqualTo("noise explains it");
        assertThat(ChipletDemo.verdict(oneRound.estimate(PairedBootstrap.standard()))).startsWith("Not measurable in one round");
        assertThat(ChipletDemo.roundsReport(oneRound).verdict()).isEqualTo("not enough evidence yet");
    }

    @Test
    void aRatioThatNoiseExplainsIsNeverPrintedAsAResult()
    {
        assertThat(ChipletDemo.verdict(new RatioEstimate(1.211, 0.95, 1.52, 0.95, 0.2, 22, 66, 10_000)))
                .isEqualTo("No difference measurable on this machine: with the plugin 21.1 % slower (speed-up 0.826x, time without / with), but "
                        + "the 95 % CI [0.658, 1.053] holds 1.");
        assertThat(ChipletDemo.verdict(new RatioEstimate(1.031, 1.012, 1.05, 0.95, 0.02, 22, 66, 10_000)))
                .isEqualTo("With the plugin these queries ran 3.1 % slower on this machine: speed-up 0.970x (time without / with), 95 % CI [0.952, 0.988].");
        assertThat(ChipletDemo.verdict(new RatioEstimate(0.9, 0.85, 0.95, 0.95, 0.02, 22, 66, 10_000))).startsWith("With the plugin these queries ran 10.0 % faster");
        // One round pairs every query once, the plugin side first: the interval holds no noise of the order, so no result.
        assertThat(ChipletDemo.verdict(new RatioEstimate(1.076, 1.024, 1.128, 0.95, 0, 22, 22, 10_000)))
                .startsWith("Not measurable in one round: with the plugin 7.6 % slower (speed-up 0.929x, time without / with");
    }

    @Test
    void theRoundsLineAndTheVerdictPointTheSameWayAndClaimNoGuardOrCpuOfTheirOwn()
    {
        List<Integer> queries = List.of(1, 6);
        OnOffComparison slower = new OnOffComparison(queries, List.of(Map.of(1, 1.25, 6, 2.5), Map.of(1, 1.26, 6, 2.49), Map.of(1, 1.24, 6, 2.51)),
                List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0), Map.of(1, 1.0, 6, 2.0)));
        String verdict = ChipletDemo.verdict(slower.estimate(PairedBootstrap.standard()));
        String line = ChipletDemo.roundsLine(slower);
        // both say speed-up 0.8x (without / with), below 1 for a plugin side that took longer
        assertThat(verdict).contains("speed-up 0.800x");
        assertThat(line).contains("speed-up 0.800x");
        assertThat(line).doesNotContain("plugin CPU").doesNotContain("guard").doesNotContain("unknown");
    }

    @Test
    void thePluginsOwnFiguresSayWhatTheyAreOrWhyNotMeasured()
    {
        assertThat(ChipletDemo.pluginView(java.util.OptionalDouble.of(0.01219), java.util.OptionalDouble.of(1), java.util.OptionalDouble.of(0.1)))
                .isEqualTo("The plugin's own figures for its last run: plugin CPU 1.219 % of the job's; guard placing, control share 10.0 % of tasks.");
        assertThat(ChipletDemo.pluginView(java.util.OptionalDouble.empty(), java.util.OptionalDouble.empty(), java.util.OptionalDouble.empty()))
                .contains("plugin CPU not measured (").contains("not reported (").doesNotContain("unknown");
        assertThat(ChipletDemo.pluginView(java.util.OptionalDouble.of(0.002), java.util.OptionalDouble.of(0), java.util.OptionalDouble.of(0.1)))
                .contains("guard stopped placement");
        assertThat(ChipletDemo.pluginView(java.util.OptionalDouble.of(0.002), java.util.OptionalDouble.of(1), java.util.OptionalDouble.of(0)))
                .contains("guard placing, no control arm (nothing measured in place: a host of one L3 group, or measuring off;");
    }

    @Test
    void byteSizesInOneUnitStyleAndUnpinnedTasksExplained()
    {
        assertThat(ChipletDemo.sizeInUnits("67108864b")).isEqualTo("64m");
        assertThat(ChipletDemo.sizeInUnits("268435456b")).isEqualTo("256m");
        assertThat(ChipletDemo.sizeInUnits("1536b")).isEqualTo("1536b");
        assertThat(ChipletDemo.sizeInUnits("2048b")).isEqualTo("2k");
        assertThat(ChipletDemo.sizeInUnits("64m")).isEqualTo("64m");
        assertThat(ChipletDemo.sizeInUnits("200")).isEqualTo("200");
        assertThat(ChipletDemo.unpinnedReason("auto")).contains("control arm").contains("docs/measuring.md");
        assertThat(ChipletDemo.unpinnedReason("wim")).contains("policy wim binds no task");
        assertThat(ChipletDemo.NEXT_STEP).startsWith("Next: ").contains("spark.plugins=io.chiplet.spark.ChipletPlugin");
    }

    @Test
    void badArgumentsAreNamedAsSuch()
    {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChipletDemo.parse(new String[] {"--bogus"})).hasMessage("unknown option --bogus");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChipletDemo.parse(new String[] {"--rounds"})).hasMessage("--rounds needs a value");
        // A setting the plugin would refuse is refused before anything runs (exit 2), not printed as one line of a successful run.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChipletDemo.parse(new String[] {"--rounds", "0", "--conf", "spark.chiplet.policy=bogus"}))
                .hasMessageStartingWith("--conf: ").hasMessageContaining("spark.chiplet.policy");
    }

    private static String show(BundledMachine machine, Map<String, String> conf)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PlacementSettings settings = ((SparkSettings.Valid) SparkSettings.parse(conf)).settings();
        new MachineShowcase(new PrintStream(bytes, true, StandardCharsets.UTF_8), settings).show(machine);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Topology read(BundledMachine machine)
            throws URISyntaxException
    {
        Path file = Path.of(MachineShowcase.class.getResource("machines/" + machine.resource()).toURI());
        return TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(file));
    }
}
