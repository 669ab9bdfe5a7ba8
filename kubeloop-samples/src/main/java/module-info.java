/**
 * kubeloop's samples: {@code io.kubeloop.samples.tour} (the client in a few calls) and {@code
 * io.kubeloop.samples.samplecontroller} (the Foo custom resource that owns a Deployment, after Go's
 * sample-controller), whose records Jackson binds.
 */
module io.kubeloop.samples {
    requires transitive io.kubeloop.controller;
    requires transitive io.kubeloop.models;

    exports io.kubeloop.samples.samplecontroller;
    exports io.kubeloop.samples.tour;

    opens io.kubeloop.samples.samplecontroller to
            tools.jackson.databind;
}
