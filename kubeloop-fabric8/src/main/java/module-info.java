import io.kubeloop.api.spi.ModelSupport;
import io.kubeloop.fabric8.internal.Fabric8ModelSupport;

/**
 * fabric8's model classes (kubernetes-model 8.x) as typed objects of kubeloop: with this module on the path,
 * {@link io.kubeloop.api.Scheme#defaults()} maps fabric8's classes of the common built-in kinds (beside
 * kubeloop's own models, which stay each kind's type), any fabric8 model class declares its kind through its
 * own annotations, and kubeloop reads fabric8 objects' metadata field by field instead of through JSON. It
 * exports nothing: it is a {@link io.kubeloop.api.spi.ModelSupport}.
 *
 * <p>fabric8's kubernetes-model jars are automatic modules named after their files ({@code
 * kubernetes.model.core}, {@code kubernetes.model.apps}, …).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kubeloop.fabric8 {
    requires transitive io.kubeloop.api;
    requires transitive kubernetes.model.core;
    requires transitive kubernetes.model.apps;
    requires transitive kubernetes.model.batch;
    requires transitive kubernetes.model.coordination;
    requires transitive kubernetes.model.events;
    requires transitive kubernetes.model.apiextensions;

    provides ModelSupport with
            Fabric8ModelSupport;
}
