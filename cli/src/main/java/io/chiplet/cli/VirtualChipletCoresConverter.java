package io.chiplet.cli;

import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.UnusableValueException;
import picocli.CommandLine;

/**
 * {@code --virtual-chiplet-cores N}, checked by the plugins' own declaration ({@link PluginSettings#VIRTUAL_CHIPLET_CORES}:
 * Spark's {@code spark.chiplet.virtualChipletCores}, Trino's {@code chiplet.virtual-chiplet-cores}), so the CLI accepts
 * exactly what they accept.
 */
final class VirtualChipletCoresConverter
        implements CommandLine.ITypeConverter<Integer>
{
    @Override
    public Integer convert(String value)
    {
        try {
            return PluginSettings.VIRTUAL_CHIPLET_CORES.parse(value.strip());
        }
        catch (UnusableValueException e) {
            throw new CommandLine.TypeConversionException("expected " + e.getMessage() + " but found '" + value + "'");
        }
    }
}
