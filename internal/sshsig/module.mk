# cmocka tests of the sshsig module (tests/unit/sshsig_test.c); they run the
# real ssh-keygen (Debian package openssh-client).
TEST_DEPS_sshsig := util sshsig
