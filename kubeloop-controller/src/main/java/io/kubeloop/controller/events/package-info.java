/**
 * Events for users, after client-go's {@code tools/record}: an
 * {@link io.kubeloop.controller.events.EventBroadcaster} writes core/v1 Events in the background
 * for the {@link io.kubeloop.controller.events.EventRecorder}s it hands out, correlating them first
 * (similar ones combined, identical ones counted, spam limited). Recording never blocks a
 * reconciler.
 */
package io.kubeloop.controller.events;
