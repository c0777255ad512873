package io.chiplet.topology;

import java.util.Map;
import java.util.Optional;

/**
 * An ARM core design, from the MIDR_EL1 register the kernel shows in {@code cpuN/regs/identification/midr_el1}
 * (4.11+): its implementer (bits 31-24) and part number (bits 15-4). CPUs with different parts are different kinds of
 * core even when nothing else (no {@code cpu_capacity}, no {@code cpufreq}) tells them apart; the variant and revision
 * bits are left out, since a revision is not another kind. Designs this table knows get a name and a performance
 * class (little, big, prime) that ranks kinds when no capacity or frequency does; an unknown part still separates
 * kinds, unranked. Part numbers are those of Linux's {@code arch/arm64/include/asm/cputype.h}.
 *
 * @param id implementer << 12 | part number; 0 is never a part
 */
record ArmCorePart(int id)
{
    /** A design this table knows: its name and class, 0 for little cores, 1 for big, 2 for prime (X-series). */
    record Design(String name, int performanceClass) {}

    private static final int ARM = 0x41;
    private static final int QUALCOMM = 0x51;
    private static final int APPLE = 0x61;

    private static final Map<Integer, Design> DESIGNS = Map.ofEntries(
            design(ARM, 0xd01, "Cortex-A32", 0), design(ARM, 0xd02, "Cortex-A34", 0), design(ARM, 0xd03, "Cortex-A53", 0),
            design(ARM, 0xd04, "Cortex-A35", 0), design(ARM, 0xd05, "Cortex-A55", 0), design(ARM, 0xd46, "Cortex-A510", 0),
            design(ARM, 0xd80, "Cortex-A520", 0),
            design(ARM, 0xd07, "Cortex-A57", 1), design(ARM, 0xd08, "Cortex-A72", 1), design(ARM, 0xd09, "Cortex-A73", 1),
            design(ARM, 0xd0a, "Cortex-A75", 1), design(ARM, 0xd0b, "Cortex-A76", 1), design(ARM, 0xd0d, "Cortex-A77", 1),
            design(ARM, 0xd41, "Cortex-A78", 1), design(ARM, 0xd4b, "Cortex-A78C", 1), design(ARM, 0xd47, "Cortex-A710", 1),
            design(ARM, 0xd4d, "Cortex-A715", 1), design(ARM, 0xd81, "Cortex-A720", 1), design(ARM, 0xd87, "Cortex-A725", 1),
            design(ARM, 0xd0c, "Neoverse-N1", 1), design(ARM, 0xd49, "Neoverse-N2", 1), design(ARM, 0xd40, "Neoverse-V1", 1),
            design(ARM, 0xd4f, "Neoverse-V2", 1),
            design(ARM, 0xd44, "Cortex-X1", 2), design(ARM, 0xd4c, "Cortex-X1C", 2), design(ARM, 0xd48, "Cortex-X2", 2),
            design(ARM, 0xd4e, "Cortex-X3", 2), design(ARM, 0xd82, "Cortex-X4", 2), design(ARM, 0xd85, "Cortex-X925", 2),
            design(QUALCOMM, 0x801, "Kryo-2xx-Silver", 0), design(QUALCOMM, 0x803, "Kryo-3xx-Silver", 0),
            design(QUALCOMM, 0x805, "Kryo-4xx-Silver", 0), design(QUALCOMM, 0x800, "Kryo-2xx-Gold", 1),
            design(QUALCOMM, 0x802, "Kryo-3xx-Gold", 1), design(QUALCOMM, 0x804, "Kryo-4xx-Gold", 1),
            design(APPLE, 0x022, "Apple-M1-Icestorm", 0), design(APPLE, 0x024, "Apple-M1-Pro-Icestorm", 0),
            design(APPLE, 0x028, "Apple-M1-Max-Icestorm", 0), design(APPLE, 0x032, "Apple-M2-Blizzard", 0),
            design(APPLE, 0x023, "Apple-M1-Firestorm", 1), design(APPLE, 0x025, "Apple-M1-Pro-Firestorm", 1),
            design(APPLE, 0x029, "Apple-M1-Max-Firestorm", 1), design(APPLE, 0x033, "Apple-M2-Avalanche", 1));

    private static Map.Entry<Integer, Design> design(int implementer, int part, String name, int performanceClass)
    {
        return Map.entry(implementer << 12 | part, new Design(name, performanceClass));
    }

    /**
     * The part of a {@code midr_el1} file's value: {@code 0x} and 1 to 16 hex digits ({@code 0x00000000410fd0b0}).
     *
     * @throws TopologyException naming {@code file} when the value is not that, or names no implementer or part
     */
    static ArmCorePart parseMidr(String file, String text)
    {
        String value = FileText.value(text).strip();
        if (!value.startsWith("0x") || value.length() < 3 || value.length() > 18) {
            throw new TopologyException(file + ": expected a MIDR like 0x00000000410fd0b0 but found " + FileText.quote(value));
        }
        long midr = 0;
        for (int i = 2; i < value.length(); i++) {
            int digit = Character.digit(value.charAt(i), 16);
            if (digit < 0 || value.charAt(i) > 'f') {
                throw new TopologyException(file + ": expected a MIDR like 0x00000000410fd0b0 but found " + FileText.quote(value));
            }
            midr = midr << 4 | digit;
        }
        int implementer = (int) (midr >>> 24 & 0xff);
        int part = (int) (midr >>> 4 & 0xfff);
        if (implementer == 0 || part == 0) {
            throw new TopologyException(file + ": expected a MIDR naming an implementer and a part but found " + FileText.quote(value));
        }
        return new ArmCorePart(implementer << 12 | part);
    }

    Optional<Design> design()
    {
        return Optional.ofNullable(DESIGNS.get(id));
    }

    /** The design's name, else {@code ARM part 0x41:0xd0b}. */
    String describe()
    {
        return design().map(Design::name).orElseGet(() -> "ARM part 0x%02x:0x%03x".formatted(id >>> 12, id & 0xfff));
    }
}
