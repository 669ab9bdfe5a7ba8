/**
 * Client configuration: where the API server is, how to trust it, who we are.
 *
 * <p>Entry points, in the order most programs need them:
 * <ul>
 *   <li>{@link io.kubeloop.client.config.ClientConfig#auto()} — controller-runtime's resolution
 *       order: {@code KUBECONFIG}, else the in-cluster service account, else {@code ~/.kube/config}.
 *   <li>{@link io.kubeloop.client.config.KubeConfigLoader} — kubectl's kubeconfig rules: explicit
 *       path or {@code KUBECONFIG} merge or {@code ~/.kube/config}; {@code --context},
 *       {@code --cluster}, {@code --user}, {@code -n} overrides; relative paths resolved against the
 *       defining file. {@link io.kubeloop.client.config.KubeConfig} is the parsed, merged model.
 *   <li>{@link io.kubeloop.client.config.InClusterConfig} — {@code KUBERNETES_SERVICE_HOST/PORT}
 *       and the service-account token, CA and namespace.
 *   <li>{@link io.kubeloop.client.config.SslContextBuilder} — the TLS context: CA or default or
 *       insecure trust, server-name verification inside the trust manager (honouring
 *       {@code tls-server-name}), fixed or rotating client certificates, TLS 1.2+.
 *   <li>{@link io.kubeloop.client.config.AuthProvider} — the {@code Authorization} header: bearer,
 *       basic, {@link io.kubeloop.client.config.TokenFileAuthProvider token file} re-read on change,
 *       exec credential plugins ({@code client.authentication.k8s.io/v1} and {@code v1beta1}).
 * </ul>
 *
 * <p>Errors: {@link io.kubeloop.client.config.KubeConfigException} for bad configuration (one line
 * naming the file and field, e.g. {@code kubeconfig /home/u/.kube/config: context "foo" not found});
 * {@link io.kubeloop.client.config.CredentialException} for credentials that fail at request time
 * (exec plugin missing or failing). {@link io.kubeloop.client.config.ConfigEnvironment} makes the
 * environment variables, home and service-account directories and the clock injectable.
 *
 * <p>Not supported: {@code auth-provider} plugins (gcp, azure, oidc — use exec plugins),
 * impersonation ({@code as}, {@code as-groups}), SOCKS proxies, encrypted private keys, interactive
 * exec plugins.
 */
package io.kubeloop.client.config;
