package io.chiplet.spark.skew;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Scala {@code Seq} members of Spark's listener events the same way on Scala 2.12 and 2.13.
 *
 * <p>A Spark accessor declared {@code Seq[T]} returns {@code scala.collection.Seq} in a Scala 2.12 build (Spark 3.5's
 * default) and {@code scala.collection.immutable.Seq} in a 2.13 build, so Java code compiled against one fails with
 * {@link NoSuchMethodError} on the other, and {@code scala.jdk} converters exist only in 2.13. The accessor is
 * therefore called by name and its result walked as a {@code scala.collection.Iterable}, which both versions share.
 * Listener events are rare: reflection costs nothing that matters here.
 */
final class ScalaSeqs
{
    private ScalaSeqs() {}

    /** The elements of the {@code Seq} that {@code target.accessor()} returns. */
    static <T> List<T> elements(Object target, String accessor, Class<T> type)
    {
        Object seq;
        try {
            seq = target.getClass().getMethod(accessor).invoke(target);
        }
        catch (InvocationTargetException e) {
            throw new IllegalStateException(target.getClass().getSimpleName() + "." + accessor + "() failed", e.getCause());
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(target.getClass().getSimpleName() + " has no " + accessor + "() in this Spark", e);
        }
        List<T> elements = new ArrayList<>();
        scala.collection.Iterator<?> iterator = ((scala.collection.Iterable<?>) seq).iterator();
        while (iterator.hasNext()) {
            elements.add(type.cast(iterator.next()));
        }
        return elements;
    }
}
