package io.chiplet.perf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fields of {@code struct perf_event_attr} a counting event sets; every other field is zero.
 *
 * @param type {@code PERF_TYPE_*}
 * @param config the event
 * @param config1 extra event bits (offcore response masks)
 * @param config2 more extra event bits
 * @param readFormat {@code PERF_FORMAT_*}
 * @param flags the bit field after {@code read_format} ({@code disabled}, {@code exclude_kernel}, ...)
 */
public record PerfEventAttr(int type, long config, long config1, long config2, long readFormat, long flags)
{
    /**
     * {@code PERF_ATTR_SIZE_VER8}: the struct up to {@code config3}. Older kernels accept a larger struct as long as
     * the bytes they do not know are zero, which ours are.
     */
    public static final int SIZE = 136;

    // Offsets in the struct (include/uapi/linux/perf_event.h), the same on every 64-bit architecture.
    static final int TYPE = 0;
    static final int SIZE_FIELD = 4;
    static final int CONFIG = 8;
    static final int READ_FORMAT = 32;
    static final int FLAGS = 40;
    static final int CONFIG1 = 56;
    static final int CONFIG2 = 64;

    /** The struct's bytes in this machine's byte order, ready to hand to the kernel. */
    public byte[] toBytes()
    {
        ByteBuffer buffer = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        buffer.putInt(TYPE, type);
        buffer.putInt(SIZE_FIELD, SIZE);
        buffer.putLong(CONFIG, config);
        buffer.putLong(READ_FORMAT, readFormat);
        buffer.putLong(FLAGS, flags);
        buffer.putLong(CONFIG1, config1);
        buffer.putLong(CONFIG2, config2);
        return buffer.array();
    }

    /** For error messages: the fields that say which event it was. */
    @Override
    public String toString()
    {
        return "{type=" + type + ", config=0x" + Long.toHexString(config) + ", config1=0x" + Long.toHexString(config1) + "}";
    }
}
