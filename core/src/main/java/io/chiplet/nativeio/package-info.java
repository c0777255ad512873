/**
 * The native boundary's base: which platform this is, libc through FFM (Java 22+, {@code java22/}) or JNA (Java 17),
 * errno and syscall numbers, {@code execve}, directory listing. Each syscall family has one place here or in the
 * package that owns it; everything above calls plain Java.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.nativeio;
