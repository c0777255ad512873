package io.chiplet.topology;

/** What a cache holds, as sysfs {@code cache/indexN/type} says. */
public enum CacheType
{
    DATA, INSTRUCTION, UNIFIED;

    public static CacheType fromSysfs(String text)
    {
        String value = FileText.value(text).strip();
        return switch (value) {
            case "Data" -> DATA;
            case "Instruction" -> INSTRUCTION;
            case "Unified" -> UNIFIED;
            default -> throw new IllegalArgumentException("expected Data, Instruction or Unified but found " + FileText.quote(value));
        };
    }
}
