package io.chiplet.cli;

import io.chiplet.placement.Bytes;
import picocli.CommandLine;

/** Lets options take {@code 1073741824}, {@code 64MiB} or {@code 1GiB}. */
final class ByteSizeConverter
        implements CommandLine.ITypeConverter<Long>
{
    @Override
    public Long convert(String value)
    {
        try {
            return Bytes.parse(value);
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
