from sitegen.cli import main

if __name__ == "__main__":  # not when a worker process imports the main module
    main()
