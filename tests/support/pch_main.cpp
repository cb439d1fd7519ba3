// The target each test borrows its precompiled headers from (tests/StackPilotTest.cmake).
int main()
{
    return 0;
}
