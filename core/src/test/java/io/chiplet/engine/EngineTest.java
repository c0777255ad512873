package io.chiplet.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EngineTest
{
    @Test
    void enginesAreNamedAsTheCommandLineNamesThem()
    {
        assertThat(Engine.parse(" Spark ")).contains(Engine.SPARK);
        assertThat(Engine.parse("trino")).contains(Engine.TRINO);
        assertThat(Engine.parse("flink")).isEmpty();
        assertThat(Engine.validNames()).isEqualTo("spark or trino");
        for (Engine engine : Engine.values()) {
            assertThat(Engine.parse(engine.cliName())).contains(engine);
        }
    }
}
