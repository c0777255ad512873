package io.chiplet.spark.ui;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.SparkContext;
import org.apache.spark.ui.SparkUI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.util.OptionalLong;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Attaches the Chiplet tab to a Spark UI: the tab bar's entry and, at {@code /chiplet}, a servlet of the API the
 * running Spark serves ({@code jakarta.servlet} from 4.0, {@code javax.servlet} before), found by
 * {@code WebUI.attachHandler(String contextPath, HttpServlet, String pathSpec)}'s parameter type. Any failure costs the tab only.
 */
public final class ChipletUi
{
    private static final Logger log = LoggerFactory.getLogger(ChipletUi.class);

    private ChipletUi() {}

    /** The live application's tab, fed by a listener on its bus; nothing where the UI is off. */
    public static void attachLive(SparkContext context)
    {
        requireNonNull(context, "context is null");
        FailOpenGuard guard = new FailOpenGuard(log, "the Chiplet tab of the Spark UI", "placement and Spark go on, the UI has no Chiplet tab");
        guard.run("Chiplet tab", () -> {
            if (context.ui().isEmpty()) {
                return;
            }
            ChipletPageModel model = new ChipletPageModel();
            model.application(context.appName(), "", OptionalLong.of(context.startTime()));
            context.addSparkListener(new ChipletUiListener(model, guard, ignored -> {}));
            attach(context.ui().get(), () -> {
                // The id is known only after the plugins started.
                model.application(context.appName(), context.applicationId(), OptionalLong.of(context.startTime()));
                return model.html("this application, live");
            });
        });
    }

    /** The tab over {@code html}. */
    static void attach(SparkUI ui, Supplier<String> html)
    {
        Method attachHandler = null;
        for (Method method : ui.getClass().getMethods()) {
            if (method.getName().equals("attachHandler") && method.getParameterCount() == 3 && method.getParameterTypes()[0] == String.class) {
                attachHandler = method;
            }
        }
        if (attachHandler == null) {
            throw new IllegalStateException("this Spark's UI has no attachHandler(String, HttpServlet, String)");
        }
        Object servlet = attachHandler.getParameterTypes()[1].getName().startsWith("jakarta.")
                ? new JakartaPageServlet(html)
                : new JavaxPageServlet(html);
        try {
            // (context path, servlet, path spec): under the UI's base path (/history/<app> in the History Server).
            attachHandler.invoke(ui, ui.getBasePath() + "/chiplet", servlet, "/*");
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot attach the Chiplet page: " + e, e);
        }
        ui.attachTab(new ChipletTab(ui));
    }
}
