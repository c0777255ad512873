package io.chiplet.spark;

import io.chiplet.spark.driver.ChipletDriverPlugin;
import io.chiplet.spark.executor.ChipletExecutorPlugin;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletPluginEntryTest
{
    @Test
    void readsJavaFeatureReleases()
    {
        assertThat(ChipletPlugin.featureOf("1.8")).isEqualTo(8);
        assertThat(ChipletPlugin.featureOf("11")).isEqualTo(11);
        assertThat(ChipletPlugin.featureOf("17")).isEqualTo(17);
        assertThat(ChipletPlugin.featureOf("25")).isEqualTo(25);
        assertThat(ChipletPlugin.featureOf("")).isZero();
        assertThat(ChipletPlugin.featureOf("x")).isZero();
    }

    /** The class Spark loads by name must load on Java 8, and everything the plugin proper needs on Java 17. */
    @Test
    void theEntryIsJava8ByteCodeAndThePluginJava17()
            throws IOException
    {
        assertThat(majorVersion(ChipletPlugin.class)).isEqualTo(52);
        assertThat(majorVersion(ChipletSparkPlugin.class)).isEqualTo(61);
        assertThat(ChipletSparkPlugin.ENTRY_CLASS).isEqualTo(ChipletPlugin.class.getName());
    }

    @Test
    void theEntryHandsSparkThePluginProper()
    {
        ChipletPlugin plugin = new ChipletPlugin();
        assertThat(plugin.driverPlugin()).isInstanceOf(ChipletDriverPlugin.class);
        assertThat(plugin.executorPlugin()).isInstanceOf(ChipletExecutorPlugin.class);
    }

    private static int majorVersion(Class<?> type)
            throws IOException
    {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            DataInputStream data = new DataInputStream(in);
            data.readInt();
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }
}
