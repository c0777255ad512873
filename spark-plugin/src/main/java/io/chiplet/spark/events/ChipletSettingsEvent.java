package io.chiplet.spark.events;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import org.apache.spark.scheduler.SparkListenerEvent;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The partition settings the driver chose, each with its reason, and what they were based on; one event each time
 * the figure changes.
 *
 * @param basis the executors counted ("2 of 2 expected executors", "provisional until ...")
 * @param settings {@code key = value: reason}, in the driver's order
 */
public record ChipletSettingsEvent(long time, String basis, List<String> settings)
        implements SparkListenerEvent
{
    public ChipletSettingsEvent
    {
        requireNonNull(basis, "basis is null");
        settings = List.copyOf(requireNonNull(settings, "settings is null"));
    }

    static ChipletSettingsEvent of(long time, String basis, List<AdvisedSetting> advice)
    {
        return new ChipletSettingsEvent(time, basis, advice.stream().map(setting -> setting.key() + " = " + setting.value() + ": " + setting.reason()).toList());
    }
}
