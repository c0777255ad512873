package io.chiplet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.util.Locale;

/** {@code --format}: what every command can print in; each command says which of them it writes. */
enum OutputFormat
{
    TEXT, JSON, SVG;

    @Override
    public String toString()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** For a command that writes text or JSON only: SVG is a usage error naming the option. */
    static OutputFormat textOrJson(OutputFormat format, CommandSpec spec)
    {
        if (format == SVG) {
            throw new ParameterException(spec.commandLine(), "--format svg: " + spec.name() + " writes text or json");
        }
        return format;
    }

    static final class Converter
            implements CommandLine.ITypeConverter<OutputFormat>
    {
        @Override
        public OutputFormat convert(String value)
        {
            for (OutputFormat format : values()) {
                if (format.name().equalsIgnoreCase(value.strip())) {
                    return format;
                }
            }
            throw new CommandLine.TypeConversionException("expected text, json or svg but found '" + value + "'");
        }
    }

    /** For the commands that write text or JSON only, so that the error lists only what they accept. */
    static final class TextOrJsonConverter
            implements CommandLine.ITypeConverter<OutputFormat>
    {
        @Override
        public OutputFormat convert(String value)
        {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "text" -> TEXT;
                case "json" -> JSON;
                default -> throw new CommandLine.TypeConversionException("expected text or json but found '" + value + "'");
            };
        }
    }
}
