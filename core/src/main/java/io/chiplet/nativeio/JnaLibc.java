package io.chiplet.nativeio;

import com.sun.jna.FunctionMapper;
import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

import java.util.Map;

/**
 * The shared plumbing of the JNA path (JDK 17 and 21, where the FFM API is missing): the C library, opened once,
 * for JNA's direct mapping, which binds a class's {@code static native} methods to C functions as JNI would and is
 * several times faster than JNA's interface mapping (and OpenHFT's {@code BitSet} path over it). Each syscall family
 * keeps its own native methods, registered against {@link #library()}.
 *
 * <p>Java method names starting with {@code syscall} all bind to {@code syscall(2)}, so that each call has a
 * prototype of its own (direct mapping cannot pass variadic arguments); every argument after the number is a
 * {@code long} or an array, as glibc's {@code syscall} reads each one as a {@code long}. A name starting with
 * {@code libc} binds to the rest, first letter lower-cased ({@code libcClose} is {@code close}), where the plain name
 * would clash with a Java method.
 */
public final class JnaLibc
{
    private static final String SYSCALL = "syscall";
    private static final String LIBC_PREFIX = "libc";

    private JnaLibc() {}

    /**
     * The C library with the {@code syscall*} name mapping.
     *
     * @throws LinkageError or a runtime exception when JNA or its native dispatch library cannot load
     */
    public static NativeLibrary library()
    {
        return Holder.LIBC;
    }

    /** Turns JNA's errno report into ours, naming the call and its arguments. */
    public static NativeCallException failure(LastErrorException e, String call, Object... arguments)
    {
        NativeCallException failure = new NativeCallException(call, arguments, e.getErrorCode());
        failure.initCause(e);
        return failure;
    }

    private static final class Holder
    {
        static final NativeLibrary LIBC = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME,
                Map.of(Library.OPTION_FUNCTION_MAPPER, (FunctionMapper) (library, method) -> symbol(method.getName())));
    }

    static String symbol(String javaName)
    {
        if (javaName.startsWith(SYSCALL)) {
            return SYSCALL;
        }
        if (javaName.startsWith(LIBC_PREFIX) && javaName.length() > LIBC_PREFIX.length()) {
            return Character.toLowerCase(javaName.charAt(LIBC_PREFIX.length())) + javaName.substring(LIBC_PREFIX.length() + 1);
        }
        return javaName;
    }
}
