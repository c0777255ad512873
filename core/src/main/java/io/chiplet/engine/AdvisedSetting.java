package io.chiplet.engine;

import static java.util.Objects.requireNonNull;

/**
 * One setting as advised: {@code key=value}, and the one-line reason behind it. What {@code chiplet advise} prints and
 * what the plugins apply or log, so both say the same.
 */
public record AdvisedSetting(String key, String value, String reason)
{
    public AdvisedSetting
    {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        requireNonNull(reason, "reason is null");
    }
}
