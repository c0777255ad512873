package io.chiplet.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cluster-managers.md shows {@code chiplet advise} on files of this repository: every command it shows is run
 * here, and every line it shows under it must be a line of the real output, so the page cannot describe a reading
 * that the named file does not give.
 */
class ClusterManagersDocTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String PROMPT = "$ bin/chiplet advise ";

    @Test
    void everyShownAdviceLineIsWhatTheNamedFileGives()
            throws IOException
    {
        List<String> page = Files.readAllLines(ROOT.resolve("docs/cluster-managers.md"));
        int commands = 0;
        for (int i = 0; i < page.size(); i++) {
            if (!page.get(i).startsWith(PROMPT)) {
                continue;
            }
            List<String> args = new ArrayList<>(Arrays.asList(page.get(i).substring(PROMPT.length()).split(" ")));
            int file = args.indexOf("--hwloc-xml") + 1;
            assertThat(file).as(page.get(i)).isPositive();
            args.set(file, ROOT.resolve(args.get(file)).toString());
            AdviseRun.Output output = AdviseRun.run(args.toArray(String[]::new));
            assertThat(output.status()).as(output.err()).isZero();
            List<String> printed = output.out().lines().toList();
            int shown = 0;
            for (int j = i + 1; j < page.size() && !page.get(j).startsWith("```"); j++) {
                assertThat(printed).as("%s shows '%s'", page.get(i), page.get(j)).contains(page.get(j));
                shown++;
            }
            assertThat(shown).as(page.get(i)).isPositive();
            commands++;
        }
        assertThat(commands).isEqualTo(3);
    }
}
