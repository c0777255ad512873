package io.chiplet.nativeio;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NativeAccessTest
{
    private static final Optional<String> JNA_LOADS = Optional.empty();

    @Test
    void jdk22AndNewerUseFfm()
    {
        assertThat(NativeAccess.choose("Linux", 22, Optional.empty(), () -> JNA_LOADS).kind()).isEqualTo(NativePath.Kind.FFM);
        assertThat(NativeAccess.choose("Linux", 25, Optional.empty(), () -> JNA_LOADS).reason()).contains("JDK 25");
    }

    @Test
    void jdk17And21UseJnaAndSayWhy()
    {
        NativePath path = NativeAccess.choose("Linux", 17, Optional.empty(), () -> JNA_LOADS);
        assertThat(path.kind()).isEqualTo(NativePath.Kind.JNA);
        assertThat(path.reason()).contains("JDK 17 has no final FFM API");
        assertThat(NativeAccess.choose("Linux", 21, Optional.empty(), () -> JNA_LOADS).kind()).isEqualTo(NativePath.Kind.JNA);
    }

    @Test
    void jnaThatCannotLoadLeavesNoPathWithTheReason()
    {
        NativePath path = NativeAccess.choose("Linux", 17, Optional.empty(), () -> Optional.of("UnsatisfiedLinkError: no jnidispatch"));
        assertThat(path.kind()).isEqualTo(NativePath.Kind.NONE);
        assertThat(path.reason()).contains("JNA cannot load: UnsatisfiedLinkError: no jnidispatch");
    }

    @Test
    void notLinuxHasNoPath()
    {
        assertThat(NativeAccess.choose("Mac OS X", 25, Optional.empty(), () -> JNA_LOADS).kind()).isEqualTo(NativePath.Kind.NONE);
    }

    @Test
    void thePropertyOverridesTheChoice()
    {
        assertThat(NativeAccess.choose("Linux", 25, Optional.of("jna"), () -> JNA_LOADS).kind()).isEqualTo(NativePath.Kind.JNA);
        assertThat(NativeAccess.choose("Linux", 25, Optional.of(" NONE "), () -> JNA_LOADS).kind()).isEqualTo(NativePath.Kind.NONE);
        NativePath ffmOn17 = NativeAccess.choose("Linux", 17, Optional.of("ffm"), () -> JNA_LOADS);
        assertThat(ffmOn17.kind()).isEqualTo(NativePath.Kind.NONE);
        assertThat(ffmOn17.reason()).contains("needs 22+");
        NativePath bad = NativeAccess.choose("Linux", 25, Optional.of("jni"), () -> JNA_LOADS);
        assertThat(bad.kind()).isEqualTo(NativePath.Kind.NONE);
        assertThat(bad.reason()).isEqualTo("chiplet.native=\"jni\" is not one of ffm, jna, none");
    }

    @Test
    void anUnavailableFamilyThrowsWithTheReason()
    {
        Runnable family = NativeAccess.unavailable(Runnable.class, "JDK 17 and JNA cannot load");
        assertThatThrownBy(family::run)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("run: no native access (JDK 17 and JNA cannot load)");
        assertThat(family.toString()).isEqualTo("Runnable unavailable: JDK 17 and JNA cannot load");
    }

    @Test
    void anFfmClassThatFailsToLoadFallsBackToUnavailable()
    {
        Runnable family = NativeAccess.implementation(new NativePath(NativePath.Kind.FFM, "test"), java.lang.invoke.MethodHandles.lookup(), Runnable.class, "io.chiplet.nativeio.NoSuchClass", () -> () -> {});
        assertThatThrownBy(family::run)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("ffm failed to initialise: ClassNotFoundException");
    }
}
