/**
 * The native boundary's base: which platform this is, libc through FFM (Java 22+, {@code java22/}) or JNA (Java 17),
 * errno and syscall numbers, {@code execve}, directory listing. Each syscall family has one place here or in the
 * package that owns it; everything above calls plain Java.
 *
 * <p>Depends on nothing else of chiplet (the JDK and JNA only).
 */
package io.chiplet.nativeio;
