package io.chiplet.spark.ui;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerEvent;

import java.util.OptionalLong;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/** Feeds the tab's model from the listener bus; {@code afterEach} runs after each of the plugin's events (the History Server stores them). */
final class ChipletUiListener
        extends SparkListener
{
    private final ChipletPageModel model;
    private final FailOpenGuard guard;
    private final Consumer<ChipletPageModel> afterEach;

    ChipletUiListener(ChipletPageModel model, FailOpenGuard guard, Consumer<ChipletPageModel> afterEach)
    {
        this.model = requireNonNull(model, "model is null");
        this.guard = requireNonNull(guard, "guard is null");
        this.afterEach = requireNonNull(afterEach, "afterEach is null");
    }

    @Override
    public void onApplicationStart(SparkListenerApplicationStart event)
    {
        guard.run("Chiplet tab onApplicationStart", () -> {
            model.application(event.appName(), event.appId().isDefined() ? event.appId().get() : "", OptionalLong.of(event.time()));
            afterEach.accept(model);
        });
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd event)
    {
        guard.run("Chiplet tab onApplicationEnd", () -> {
            model.ended(event.time());
            afterEach.accept(model);
        });
    }

    @Override
    public void onOtherEvent(SparkListenerEvent event)
    {
        guard.run("Chiplet tab event", () -> {
            if (model.add(event)) {
                afterEach.accept(model);
            }
        });
    }
}
