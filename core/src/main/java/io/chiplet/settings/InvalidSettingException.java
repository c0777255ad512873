package io.chiplet.settings;

import static java.util.Objects.requireNonNull;

/** A setting whose value cannot be used: its name, the value given and what would have been accepted. */
public final class InvalidSettingException
        extends RuntimeException
{
    private final String setting;
    private final String value;
    private final String expected;

    public InvalidSettingException(String setting, String value, String expected)
    {
        super("%s = '%s' is not usable: expected %s".formatted(setting, value, expected), null, false, false);
        this.setting = requireNonNull(setting, "setting is null");
        this.value = requireNonNull(value, "value is null");
        this.expected = requireNonNull(expected, "expected is null");
    }

    public String setting()
    {
        return setting;
    }

    public String value()
    {
        return value;
    }

    public String expected()
    {
        return expected;
    }
}
