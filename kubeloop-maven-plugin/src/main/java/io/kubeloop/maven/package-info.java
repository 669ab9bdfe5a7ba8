/** The Maven goals {@code generate-models} and {@code generate-crds}, on kubeloop's code generators. */
package io.kubeloop.maven;
