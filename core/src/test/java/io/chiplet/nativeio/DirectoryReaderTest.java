package io.chiplet.nativeio;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DirectoryReaderTest
{
    @TempDir
    Path directory;

    @BeforeEach
    void linuxWithNativeAccess()
    {
        // the build runs tests with --enable-native-access; elsewhere the reader is absent by design
        assumeTrue(NativeAccess.isLinux() && NativeAccess.path().kind() == NativePath.Kind.FFM && DirectoryReader.class.getModule().isNativeAccessEnabled());
    }

    @Test
    void readsFilesRelativeToTheDirectory()
            throws IOException
    {
        Files.createDirectories(directory.resolve("cpu7/topology"));
        Files.writeString(directory.resolve("cpu7/topology/core_id"), "13\n");

        try (DirectoryReader reader = DirectoryReader.open(directory).orElseThrow()) {
            assertThat(reader.read("cpu7/topology/core_id", true)).hasValueSatisfying(bytes -> assertThat(new String(bytes, StandardCharsets.US_ASCII)).isEqualTo("13\n"));
            assertThat(reader.read("cpu7/topology/core_id", false)).hasValueSatisfying(bytes -> assertThat(bytes).hasSize(3));
        }
    }

    @Test
    void readsAFileLargerThanItsBufferWhole()
            throws IOException
    {
        byte[] content = new byte[10_000];
        Arrays.fill(content, (byte) 'x');
        content[4095] = '\n';
        Files.write(directory.resolve("meminfo"), content);

        try (DirectoryReader reader = DirectoryReader.open(directory).orElseThrow()) {
            assertThat(reader.read("meminfo", false)).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(content));
            assertThat(reader.read("meminfo", true)).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(content));
        }
    }

    @Test
    void aMissingFileIsEmpty()
    {
        try (DirectoryReader reader = DirectoryReader.open(directory).orElseThrow()) {
            assertThat(reader.read("cpu0/online", true)).isEmpty();
        }
    }

    @Test
    void anyOtherFailureNamesTheCallAndErrno()
            throws IOException
    {
        Files.createDirectories(directory.resolve("cache/index0"));
        Files.writeString(directory.resolve("level"), "1\n");

        try (DirectoryReader reader = DirectoryReader.open(directory).orElseThrow()) {
            assertThatThrownBy(() -> reader.read("cache", true))
                    .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.call()).isEqualTo("read"))
                    .hasMessageContaining("cache");
            assertThatThrownBy(() -> reader.read("level/size", true))
                    .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.call()).isEqualTo("openat"));
        }
    }

    @Test
    void takesOnlyPlainRelativePaths()
    {
        assertThat(DirectoryReader.accepts("cpu0/topology/core_id")).isTrue();
        assertThat(DirectoryReader.accepts("")).isFalse();
        assertThat(DirectoryReader.accepts("/sys/devices")).isFalse();
        assertThat(DirectoryReader.accepts("cpu0/")).isFalse();
        assertThat(DirectoryReader.accepts("cpu0//online")).isFalse();
        assertThat(DirectoryReader.accepts("kubepods/pod\u00e9/cpuset.cpus")).isFalse();

        try (DirectoryReader reader = DirectoryReader.open(directory).orElseThrow()) {
            assertThatThrownBy(() -> reader.read("cpu0//online", true)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> reader.read("pod\u00e9", true)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aDirectoryThatCannotBeOpenedIsNoReader()
    {
        assertThat(DirectoryReader.open(directory.resolve("missing"))).isEmpty();
    }
}
