/**
 * The controller runtime: Reconciler, builder, manager, predicates, leader election and events. (Arrives with the controller issue.)
 */
package io.kubeloop.controller;
