package io.chiplet.spark.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SparkJvmOptionsTest
{
    @Test
    void optionsThatOnlyMakeTheJvmWarnAreLeftOut()
    {
        assertThat(SparkJvmOptions.quiet("--add-opens=java.base/java.nio=ALL-UNNAMED")).isTrue();
        assertThat(SparkJvmOptions.quiet("-Dio.netty.tryReflectionSetAccessible=true")).isTrue();
        assertThat(SparkJvmOptions.quiet("--add-opens=java.base/no.such.package=ALL-UNNAMED")).isFalse();
        assertThat(SparkJvmOptions.quiet("--add-opens=no.such.module/java.nio=ALL-UNNAMED")).isFalse();
        assertThat(SparkJvmOptions.quiet("--add-modules=jdk.incubator.vector")).isFalse();
    }
}
