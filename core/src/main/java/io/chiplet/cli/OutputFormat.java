package io.chiplet.cli;

import picocli.CommandLine;

import java.util.Locale;

/** {@code --format text|json}. */
enum OutputFormat
{
    TEXT, JSON;

    @Override
    public String toString()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    static final class Converter
            implements CommandLine.ITypeConverter<OutputFormat>
    {
        @Override
        public OutputFormat convert(String value)
        {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "text" -> TEXT;
                case "json" -> JSON;
                default -> throw new CommandLine.TypeConversionException("expected text or json but found \"" + value + "\"");
            };
        }
    }
}
