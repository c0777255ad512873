package io.chiplet.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class StartupTrainingTest
{
    /** A renamed option would make the training run an error path, and the cache would miss the command's own classes. */
    @Test
    void everyTrainingCommandLineParses()
    {
        for (List<String> command : StartupTraining.COMMANDS) {
            assertThatCode(() -> ChipletCli.commandLine().parseArgs(command.toArray(String[]::new)))
                    .as(String.join(" ", command))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void trainsTheCommandsTheIssueTimes()
    {
        assertThat(StartupTraining.COMMANDS).extracting(command -> command.get(0)).contains("topology", "plan", "advise", "exec");
    }
}
