package io.chiplet.spark.ui;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.status.AppHistoryServerPlugin;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.NoSuchElementException;
import java.util.OptionalLong;

/**
 * The Chiplet tab in Spark's History Server, found through {@code META-INF/services} when the plugin's jar is on the
 * History Server's class path ({@code SPARK_DAEMON_CLASSPATH}): while it replays an application's log, a listener
 * keeps the plugin's events in the application's store; when it draws the application's UI, the tab shows them.
 * Applications without the plugin get no tab. Any failure costs the tab only.
 */
public final class ChipletHistoryServerPlugin
        implements AppHistoryServerPlugin, Scala212HistoryShape
{
    private static final Logger log = LoggerFactory.getLogger(ChipletHistoryServerPlugin.class);
    private final FailOpenGuard guard = new FailOpenGuard(log, "the History Server's Chiplet tab", "the History Server runs as without it");

    @Override
    public scala.collection.immutable.List<SparkListener> createListeners(SparkConf conf, ElementTrackingStore store)
    {
        ChipletPageModel model = new ChipletPageModel();
        SparkListener listener = new ChipletUiListener(model, guard, current -> store.write(data(current)));
        return scala.collection.immutable.Nil$.MODULE$.$colon$colon(listener);
    }

    private static ChipletUiData data(ChipletPageModel model)
    {
        ChipletUiData data = new ChipletUiData();
        io.chiplet.report.RunFacts facts = model.facts("");
        data.applicationName = facts.name();
        data.applicationId = facts.id();
        data.started = facts.started().orElse(0);
        data.ended = facts.ended().orElse(0);
        data.events = model.events();
        data.tasks = model.taskView();
        return data;
    }

    @Override
    public void setupUI(SparkUI ui)
    {
        guard.run("History Server setupUI", () -> {
            ChipletUiData data;
            try {
                data = ui.store().store().read(ChipletUiData.class, ChipletUiData.ID);
            }
            catch (NoSuchElementException e) {
                return;
            }
            catch (Exception e) {
                throw new IllegalStateException(e);
            }
            if (data.events.isEmpty() && data.tasks.holdsNothing()) {
                return;
            }
            ChipletPageModel model = new ChipletPageModel();
            model.application(data.applicationName, data.applicationId, data.started == 0 ? OptionalLong.empty() : OptionalLong.of(data.started));
            if (data.ended != 0) {
                model.ended(data.ended);
            }
            data.events.forEach(model::add);
            model.taskView(data.tasks);
            String source = "the event log, replayed by the History Server";
            ChipletUi.attach(ui, () -> model.html(source));
        });
    }

    @Override
    public int displayOrder()
    {
        return Integer.MAX_VALUE;
    }
}
