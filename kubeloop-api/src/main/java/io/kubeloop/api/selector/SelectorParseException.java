package io.kubeloop.api.selector;

/**
 * A label or field selector string that cannot be parsed. The message names the problem and the
 * 0-based {@link #position()} in the input, followed by the input and a caret under that position:
 *
 * <pre>
 * unable to parse requirement: found 'xx', expected: in, notin, =, ==, !=, gt, lt at position 7
 *   tier a xx
 *          ^
 * </pre>
 *
 * Unchecked; immutable.
 */
public final class SelectorParseException extends IllegalArgumentException {

    private final String problem;
    private final String input;
    private final int position;

    /**
     * @param problem what is wrong, without position
     * @param input the whole selector text
     * @param position the 0-based index of the offending character in {@code input}
     */
    public SelectorParseException(String problem, String input, int position) {
        super(problem + " at position " + position + "\n  " + input + "\n  " + " ".repeat(Math.max(0, position)) + "^");
        this.problem = problem;
        this.input = input;
        this.position = position;
    }

    /** What is wrong, without the position. */
    public String problem() {
        return problem;
    }

    /** The selector text that failed to parse. */
    public String input() {
        return input;
    }

    /** The 0-based index of the offending character; {@code input().length()} for "unexpected end". */
    public int position() {
        return position;
    }
}
