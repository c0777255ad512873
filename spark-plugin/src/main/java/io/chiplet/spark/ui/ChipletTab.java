package io.chiplet.spark.ui;

import org.apache.spark.ui.SparkUI;
import org.apache.spark.ui.WebUITab;

/**
 * The "Chiplet" entry of the UI's tab bar (prefix {@code chiplet}). It has no {@code WebUIPage}s, whose render method
 * names the servlet API of one Spark release: its page is a servlet attached at {@code /chiplet} ({@link ChipletUi}).
 */
final class ChipletTab
        extends WebUITab
{
    ChipletTab(SparkUI ui)
    {
        super(ui, "chiplet");
    }
}
