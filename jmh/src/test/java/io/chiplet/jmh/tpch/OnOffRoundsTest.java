package io.chiplet.jmh.tpch;

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
