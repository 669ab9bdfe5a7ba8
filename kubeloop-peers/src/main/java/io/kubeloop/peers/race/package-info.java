/**
 * The race's shared operator-side pieces and its JOSDK contender: {@link io.kubeloop.peers.race.RaceReporter}
 * and {@link io.kubeloop.peers.race.RequestTally}, the protocol and request count every operator child of
 * kubeloop-bench's race uses, and {@link io.kubeloop.peers.race.JosdkOperatorChild}, the sample-controller
 * written for the Java Operator SDK (fabric8 7.x, so it runs from this module's class path).
 */
package io.kubeloop.peers.race;
