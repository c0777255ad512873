package io.chiplet.wire;

/** A message that is not in the wire format, or a field of it that does not read; the text names the message and field. */
public final class WireFormatException
        extends IllegalArgumentException
{
    private static final long serialVersionUID = 1;

    WireFormatException(String message)
    {
        super(message);
    }

    /** As an {@link Unreadable}, the form decoders return. */
    public Unreadable unreadable()
    {
        return new Unreadable(getMessage());
    }
}
