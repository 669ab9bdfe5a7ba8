package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kubeloop.apiserver.internal.schema.Formats;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kubernetes' CEL libraries beyond the standard ones, as kube-apiserver declares them:
 * <ul>
 *   <li>lists: {@code l.isSorted()}, {@code l.sum()}, {@code l.min()}, {@code l.max()},
 *       {@code l.indexOf(x)}, {@code l.lastIndexOf(x)};</li>
 *   <li>regex: {@code s.find(re)}, {@code s.findAll(re)}, {@code s.findAll(re, n)};</li>
 *   <li>networks: {@code isIP(s)}, {@code isCIDR(s)} (no leading zeros, no zones, as Kubernetes parses
 *       them), and URLs: {@code isURL(s)} (absolute or absolute-path URLs).</li>
 * </ul>
 * Not provided: the {@code ip}, {@code cidr}, {@code url}, {@code quantity}, {@code semver} and
 * {@code format} value types and the authorizer library.
 *
 * <p>Stateless; the declarations and bindings are immutable.
 */
final class KubernetesFunctions {

    private static final TypeParamType T = TypeParamType.create("T");
    private static final ListType LIST_T = ListType.create(T);

    private KubernetesFunctions() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                member("isSorted", "list_is_sorted", SimpleType.BOOL, LIST_T),
                CelFunctionDecl.newFunctionDeclaration(
                        "sum",
                        CelOverloadDecl.newMemberOverload(
                                "list_int_sum", SimpleType.INT, ListType.create(SimpleType.INT)),
                        CelOverloadDecl.newMemberOverload(
                                "list_double_sum", SimpleType.DOUBLE, ListType.create(SimpleType.DOUBLE))),
                member("min", "list_min", T, LIST_T),
                member("max", "list_max", T, LIST_T),
                member("indexOf", "list_index_of", SimpleType.INT, LIST_T, T),
                member("lastIndexOf", "list_last_index_of", SimpleType.INT, LIST_T, T),
                member("find", "string_find", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING),
                CelFunctionDecl.newFunctionDeclaration(
                        "findAll",
                        CelOverloadDecl.newMemberOverload(
                                "string_find_all",
                                ListType.create(SimpleType.STRING),
                                SimpleType.STRING,
                                SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload(
                                "string_find_all_n",
                                ListType.create(SimpleType.STRING),
                                SimpleType.STRING,
                                SimpleType.STRING,
                                SimpleType.INT)),
                global("isIP", "is_ip", SimpleType.BOOL, SimpleType.STRING),
                global("isCIDR", "is_cidr", SimpleType.BOOL, SimpleType.STRING),
                global("isURL", "is_url", SimpleType.BOOL, SimpleType.STRING));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_is_sorted", List.class, KubernetesFunctions::isSorted),
                CelFunctionBinding.from("list_int_sum", List.class, l -> sumLongs(l)),
                CelFunctionBinding.from("list_double_sum", List.class, l -> sumDoubles(l)),
                CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1)),
                CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1)),
                CelFunctionBinding.from("list_index_of", List.class, Object.class, (l, x) -> indexOf(l, x, false)),
                CelFunctionBinding.from("list_last_index_of", List.class, Object.class, (l, x) -> indexOf(l, x, true)),
                CelFunctionBinding.from("string_find", String.class, String.class, (s, re) -> {
                    Matcher m = pattern(re).matcher(s);
                    return m.find() ? m.group() : "";
                }),
                CelFunctionBinding.from("string_find_all", String.class, String.class, (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from(
                        "string_find_all_n",
                        List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])),
                CelFunctionBinding.from("is_ip", String.class, KubernetesFunctions::isIp),
                CelFunctionBinding.from("is_cidr", String.class, KubernetesFunctions::isCidr),
                CelFunctionBinding.from("is_url", String.class, KubernetesFunctions::isUrl));
    }

    private static CelFunctionDecl member(String name, String id, CelType result, CelType... params) {
        return CelFunctionDecl.newFunctionDeclaration(name, CelOverloadDecl.newMemberOverload(id, result, params));
    }

    private static CelFunctionDecl global(String name, String id, CelType result, CelType... params) {
        return CelFunctionDecl.newFunctionDeclaration(name, CelOverloadDecl.newGlobalOverload(id, result, params));
    }

    private static boolean isSorted(List<?> list) throws CelEvaluationException {
        for (int i = 1; i < list.size(); i++) {
            if (compare(list.get(i - 1), list.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    private static long sumLongs(List<?> list) throws CelEvaluationException {
        long sum = 0;
        for (Object o : list) {
            try {
                sum = Math.addExact(sum, (Long) o);
            } catch (ArithmeticException e) {
                throw new CelEvaluationException("integer overflow");
            }
        }
        return sum;
    }

    private static double sumDoubles(List<?> list) {
        double sum = 0;
        for (Object o : list) {
            sum += (Double) o;
        }
        return sum;
    }

    /** The smallest ({@code sign} -1) or largest (+1) element; an error for an empty list. */
    private static Object extreme(List<?> list, int sign) throws CelEvaluationException {
        if (list.isEmpty()) {
            throw new CelEvaluationException((sign < 0 ? "min" : "max") + " called on empty list");
        }
        Object best = list.get(0);
        for (Object o : list) {
            if (Integer.signum(compare(o, best)) == sign) {
                best = o;
            }
        }
        return best;
    }

    private static long indexOf(List<?> list, Object x, boolean last) {
        long found = -1;
        for (int i = 0; i < list.size(); i++) {
            if (Objects.equals(list.get(i), x)) {
                found = i;
                if (!last) {
                    break;
                }
            }
        }
        return found;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) throws CelEvaluationException {
        if (a instanceof Comparable ca && b != null && a.getClass() == b.getClass()) {
            return ca.compareTo(b);
        }
        throw new CelEvaluationException("no such overload: values of "
                + (a == null ? "null" : a.getClass().getSimpleName()) + " and "
                + (b == null ? "null" : b.getClass().getSimpleName()) + " are not comparable");
    }

    private static List<String> findAll(String s, String re, long limit) throws CelEvaluationException {
        List<String> out = new ArrayList<>();
        if (limit == 0) {
            return out;
        }
        Matcher m = pattern(re).matcher(s);
        while (m.find() && (limit < 0 || out.size() < limit)) {
            out.add(m.group());
        }
        return out;
    }

    private static Pattern pattern(String re) throws CelEvaluationException {
        try {
            return Pattern.compile(re);
        } catch (PatternSyntaxException e) {
            throw new CelEvaluationException("invalid regex: " + e.getDescription());
        }
    }

    /** An IPv4 address without leading zeros, or an IPv6 address without a zone. */
    static boolean isIp(String s) {
        return Formats.ipv4(s) || Formats.ipv6(s);
    }

    /** An address and a prefix length within its family's bits, e.g. {@code 10.0.0.0/8}. */
    static boolean isCidr(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            return false;
        }
        String ip = s.substring(0, slash);
        String bits = s.substring(slash + 1);
        if (!isIp(ip) || !bits.matches("0|[1-9][0-9]{0,2}")) {
            return false;
        }
        return Integer.parseInt(bits) <= (ip.contains(":") ? 128 : 32);
    }

    /** An absolute URL ({@code https://host/path}) or an absolute path ({@code /path}). */
    static boolean isUrl(String s) {
        try {
            URI uri = new URI(s);
            return uri.isAbsolute()
                    || (uri.getRawPath() != null && uri.getRawPath().startsWith("/"));
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
