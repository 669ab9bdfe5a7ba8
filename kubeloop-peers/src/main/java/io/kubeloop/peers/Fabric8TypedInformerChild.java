package io.kubeloop.peers;

import io.argoproj.v1alpha1.Application;
import java.io.IOException;

/**
 * Contender "fabric8" of kubeloop-bench's typed-cache benchmark: fabric8 kubernetes-client 7.x's
 * {@code SharedIndexInformer} of Argo CD {@code Application}s in all namespaces, typed with the model
 * classes fabric8's java-generator wrote from the Application CRD during this module's build (no
 * resync, default list options), with one counting handler. Arguments {@code <kubeconfig> <objects>
 * <events>} and output: {@link InformerBenchReporter}.
 */
public final class Fabric8TypedInformerChild {

    private Fabric8TypedInformerChild() {}

    public static void main(String[] args) throws IOException {
        Fabric8InformerChild.measure(
                args,
                client -> client.resources(Application.class).inAnyNamespace().runnableInformer(0));
    }
}
