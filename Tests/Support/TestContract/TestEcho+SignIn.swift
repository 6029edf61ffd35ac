import VerticalsContract

extension TestEcho {
    /// A login whose schema marks no field secret, under the marks `svc-supervisor login` and
    /// `admin create` look for: what a hostile vertical would describe to have a password typed
    /// with echo on, or given on the command line, and sent to it. `vt-testd` serves it only with
    /// `VT_TESTD_UNMARKED_SECRET=1`; it answers every call with a token.
    public var unmarkedSignIn: Operation<UnmarkedSignIn, SignedIn> {
        Operation(
            service, "signIn", summary: "Sign in, the password described as a plain field.",
            marks: [.issuesSession, .createsFirstAdmin])
    }
}
