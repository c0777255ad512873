package io.chiplet.perf;

import java.util.Optional;

/**
 * The core microarchitectures whose fill-by-source events the catalog knows, recognised from the vendor, family and
 * model exactly as perf's {@code tools/perf/pmu-events/arch/x86/mapfile.csv} does.
 */
public enum Microarchitecture
{
    AMD_ZEN1("AMD Zen 1"),
    AMD_ZEN2("AMD Zen 2"),
    AMD_ZEN3("AMD Zen 3"),
    AMD_ZEN4("AMD Zen 4"),
    AMD_ZEN5("AMD Zen 5"),
    INTEL_ICELAKE_SP("Intel Ice Lake-SP"),
    INTEL_SAPPHIRE_RAPIDS("Intel Sapphire Rapids"),
    INTEL_EMERALD_RAPIDS("Intel Emerald Rapids");

    private final String displayName;

    Microarchitecture(String displayName)
    {
        this.displayName = displayName;
    }

    public String displayName()
    {
        return displayName;
    }

    public static Optional<Microarchitecture> of(CpuIdentity cpu)
    {
        int family = cpu.family();
        int model = cpu.model();
        if (cpu.isAmd()) {
            return switch (family) {
                // mapfile.csv: AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]) -> amdzen1, other family 23 models -> amdzen2
                case 0x17 -> Optional.of(model <= 0x2f ? AMD_ZEN1 : AMD_ZEN2);
                // AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]]) -> amdzen3, other family 25 models -> amdzen4
                case 0x19 -> Optional.of(model <= 0x0f || (model >= 0x20 && model <= 0x5f) ? AMD_ZEN3 : AMD_ZEN4);
                // AuthenticAMD-26-[[:xdigit:]]+ -> amdzen5
                case 0x1a -> Optional.of(AMD_ZEN5);
                default -> Optional.empty();
            };
        }
        if (cpu.isIntel() && family == 6) {
            return switch (model) {
                case 0x6a, 0x6c -> Optional.of(INTEL_ICELAKE_SP);
                case 0x8f -> Optional.of(INTEL_SAPPHIRE_RAPIDS);
                case 0xcf -> Optional.of(INTEL_EMERALD_RAPIDS);
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }
}
