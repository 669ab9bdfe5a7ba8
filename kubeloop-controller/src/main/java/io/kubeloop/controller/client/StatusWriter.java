package io.kubeloop.controller.client;

import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.internal.desired.Statuses;

/**
 * Writes an object's {@code status} subresource: controller-runtime's {@code SubResourceWriter}
 * for {@code status}. Only the status is changed; whatever else differs in the object sent is
 * ignored by the server. Kinds without a status subresource answer {@code 404}.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface StatusWriter {

    /**
     * Replaces the status (PUT on {@code /status}), guarded by the object's resourceVersion.
     *
     * @param object the object with its new status, as read (with its resourceVersion)
     * @param <T> its type
     * @return the object after the write
     */
    default <T> T update(T object) {
        return update(object, WriteOptions.none());
    }

    /**
     * {@link #update(Object) Updates} the status to {@code updated}'s unless it is the same as
     * {@code current}'s, the object as read: a status that changes nothing is not written, so it
     * costs no request and starts no reconcile. Statuses compare as JSON, absent and empty values
     * alike. Write a status this way on every reconcile, as what was observed (with
     * {@link io.kubeloop.api.Conditions#setStatusCondition}, which keeps transition times), and a
     * controller settles: its one status write after a change reconciles the object once more, which
     * finds the status right.
     *
     * {@snippet :
     * Foo foo = client.get(Foo.class, request.key());
     * client.status().updateIfChanged(foo, foo.withStatus(new FooStatus(available)));
     * }
     *
     * @param current the object as read, with its resourceVersion
     * @param updated the same object with the status it should have
     * @param <T> its type
     * @return {@code current} when nothing was written, else the object after the write
     */
    default <T> T updateIfChanged(T current, T updated) {
        return Statuses.same(current, updated) ? current : update(updated);
    }

    /**
     * {@link #update(Object)} with write options.
     *
     * @param object the object with its new status
     * @param options the write options
     * @param <T> its type
     * @return the object after the write
     */
    <T> T update(T object, WriteOptions options);

    /**
     * Patches the status of the object named by {@code object}'s metadata.
     *
     * @param object names the object
     * @param type the patch type
     * @param body the patch, e.g. {@code {"status":{"ready":true}}} as a merge patch
     * @param options the patch options
     * @param <T> its type
     * @return the object after the patch
     */
    <T> T patch(T object, PatchType type, Object body, PatchOptions options);

    /**
     * Server-side apply of {@code object}'s status: what {@link Client#apply(Object, PatchOptions)}
     * sends, with the status kept and the spec left out.
     *
     * @param object the object with the desired status
     * @param options with a field manager
     * @param <T> its type
     * @return the object after the apply
     */
    <T> T apply(T object, PatchOptions options);
}
