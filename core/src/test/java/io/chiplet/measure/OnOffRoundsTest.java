package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OnOffRoundsTest
{
    @Test
    void alternatesWhichSideGoesFirstAndKeepsEachSidesTimes()
            throws Exception
    {
        List<String> calls = new ArrayList<>();
        Iterator<Double> loads = List.of(0.5, 1.5, 1.0, 0.7, 0.2, 0.1).iterator();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        OnOffRounds.Result result = OnOffRounds.run(List.of(1, 6), 3, plugin -> {
            calls.add(plugin ? "on" : "off");
            // q1's time is the call's position (plus 10 with the plugin), so that the rounds can be told apart
            return Map.of(1, (plugin ? 10.0 : 0.0) + calls.size(), 6, plugin ? 2.0 : 1.0);
        }, loads::next, new PrintStream(progress, true, StandardCharsets.UTF_8));

        assertThat(calls).containsExactly("on", "off", "off", "on", "on", "off");
        assertThat(result.comparison().on()).extracting(round -> round.get(1)).containsExactly(11.0, 14.0, 15.0);
        assertThat(result.comparison().off()).extracting(round -> round.get(1)).containsExactly(2.0, 3.0, 6.0);
        assertThat(result.comparison().ratio(6)).isEqualTo(2.0);
        assertThat(result.peakLoad()).isEqualTo(OptionalDouble.of(1.5));
        assertThat(progress.toString(StandardCharsets.UTF_8)).startsWith("round 1/3, plugin on ...\nround 1/3, plugin off ...\nround 2/3, plugin off ...\n");
    }

    @Test
    void pairsEachQueryOnBothSidesAlternatingWhichGoesFirstByRoundAndQuery()
            throws Exception
    {
        List<String> calls = new ArrayList<>();
        Iterator<Double> loads = List.of(0.5, 2.5).iterator();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        OnOffRounds.Result result = OnOffRounds.runPaired(List.of(1, 6, 13), 2, (plugin, query) -> {
            calls.add("q" + query + (plugin ? " on" : " off"));
            // The call's position, so that the rounds can be told apart; q6 takes twice as long with the plugin.
            return query == 6 && plugin ? 2.0 * calls.size() : calls.size();
        }, loads::next, new PrintStream(progress, true, StandardCharsets.UTF_8));

        assertThat(calls).containsExactly(
                "q1 on", "q1 off", "q6 off", "q6 on", "q13 on", "q13 off",
                "q1 off", "q1 on", "q6 on", "q6 off", "q13 off", "q13 on");
        assertThat(result.comparison().on()).containsExactly(Map.of(1, 1.0, 6, 8.0, 13, 5.0), Map.of(1, 8.0, 6, 18.0, 13, 12.0));
        assertThat(result.comparison().off()).containsExactly(Map.of(1, 2.0, 6, 3.0, 13, 6.0), Map.of(1, 7.0, 6, 10.0, 13, 11.0));
        assertThat(result.peakLoad()).isEqualTo(OptionalDouble.of(2.5));
        assertThat(progress.toString(StandardCharsets.UTF_8)).isEqualTo("round 1/2, each query plugin on and off ...\nround 2/2, each query plugin on and off ...\n");
    }

    @Test
    void aFailingPairedQueryStopsTheRun()
    {
        List<String> calls = new ArrayList<>();
        assertThatThrownBy(() -> OnOffRounds.runPaired(List.of(1, 6), 2, (plugin, query) -> {
            calls.add("q" + query + (plugin ? " on" : " off"));
            if (query == 6 && !plugin) {
                throw new IllegalStateException("q6 gave different results");
            }
            return 1.0;
        }, () -> 0, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).hasMessage("q6 gave different results");
        assertThat(calls).containsExactly("q1 on", "q1 off", "q6 off");
        assertThatThrownBy(() -> OnOffRounds.runPaired(List.of(1), 0, (_, _) -> 1.0, () -> 0, System.out)).hasMessage("rounds must be positive: 0");
    }

    @Test
    void anUnknownLoadAverageIsLeftOut()
            throws Exception
    {
        OnOffRounds.Result result = OnOffRounds.run(List.of(1), 1, _ -> Map.of(1, 1.0), () -> -1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(result.peakLoad()).isEmpty();
    }

    @Test
    void aFailingSideStopsTheRun()
    {
        assertThatThrownBy(() -> OnOffRounds.run(List.of(1), 2, plugin -> {
            if (!plugin) {
                throw new IllegalStateException("q1 gave different results");
            }
            return Map.of(1, 1.0);
        }, () -> 0, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).hasMessage("q1 gave different results");
        assertThatThrownBy(() -> OnOffRounds.run(List.of(1), 0, _ -> Map.of(), () -> 0, System.out)).hasMessage("rounds must be positive: 0");
    }
}
